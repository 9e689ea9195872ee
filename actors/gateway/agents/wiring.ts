// The gateway's agents half put together from the settings: the authenticator over agents.json and the owner
// token, the per-agent rate limiter, and the audit trail (which also feeds the per-agent metrics).
import type { Config } from '../../../config/load.js';
import type { EventLogger } from '../../../supervisors/runtime/log.js';
import type { AuditEvent } from './audit-entry.js';
import { AuditLog } from './audit.js';
import type { Gate } from './http-gate.js';
import { agentMetrics } from './metrics.js';
import { Authenticator } from './principal.js';
import { RateLimiter } from './rate-limit.js';

export function agentsGate(cfg: Config, ownerToken: string, log: EventLogger): Gate & { audit: (e: AuditEvent) => void } {
  const auth = new Authenticator({
    dataDir: cfg.data_dir,
    ownerToken,
    ownerSensitive: cfg.writes.agents_may_read_sensitive,
    defaultRate: cfg.agents.default_rate,
    onFileError: (message) => log.error({ event: 'agents_file', message }, 'agents.json is unreadable: agent tokens are refused'),
  });
  const trail = new AuditLog(cfg.data_dir, cfg.audit.max_mb);
  trail.onError = (err) => log.warn({ event: 'audit', err: String(err) }, 'could not append to the audit trail');
  const metrics = agentMetrics();
  return {
    resolve: (h, agent) => auth.resolve(h, agent),
    retired: (h) => auth.retired(h),
    limiter: new RateLimiter(),
    audit: (e) => {
      metrics.count(e);
      void trail.record(e).catch(() => {});
    },
  };
}
