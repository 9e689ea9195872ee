// Checks a supervisor spec before anything starts, with errors that name the field and the rule.
import type { SupervisorSpec } from './spec.js';

export function validateSpec(spec: SupervisorSpec): void {
  const where = `supervisor ${JSON.stringify(spec.id)}`;
  if (!spec.id) throw new TypeError('supervisor id must be a non-empty string');
  if (!['one_for_one', 'rest_for_one', 'one_for_all'].includes(spec.strategy))
    throw new TypeError(`${where}: strategy must be one_for_one, rest_for_one or one_for_all`);
  if (!Number.isInteger(spec.intensity) || spec.intensity < 0) throw new TypeError(`${where}: intensity must be a non-negative integer`);
  if (!(spec.periodMs > 0)) throw new TypeError(`${where}: periodMs must be a positive number`);
  const seen = new Set<string>();
  for (const c of spec.children) {
    const child = `${where}, child ${JSON.stringify(c.id)}`;
    if (!c.id) throw new TypeError(`${where}: every child id must be a non-empty string`);
    if (seen.has(c.id)) throw new TypeError(`${child}: child ids must be unique`);
    seen.add(c.id);
    if (!['permanent', 'transient', 'temporary'].includes(c.restart))
      throw new TypeError(`${child}: restart must be permanent, transient or temporary`);
    if (!(c.shutdownMs >= 0)) throw new TypeError(`${child}: shutdownMs must be a non-negative number`);
    if (c.backoff) {
      const { minMs, maxMs, jitter } = c.backoff;
      if (!(minMs >= 0)) throw new TypeError(`${child}: backoff.minMs must be a non-negative number`);
      if (!(maxMs >= minMs)) throw new TypeError(`${child}: backoff.maxMs must be at least backoff.minMs`);
      if (!(jitter >= 0 && jitter <= 1)) throw new TypeError(`${child}: backoff.jitter must be between 0 and 1`);
    }
  }
}
