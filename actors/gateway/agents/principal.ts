// Who is calling: a bearer token resolved to a principal — the owner (`<data dir>/token`, admin, may name itself with
// X-Memvault-Agent) or an agent from agents.json (its name is its identity; the header is ignored). agents.json is
// re-read whenever it is rewritten, so a revoke or a rotation holds from the next request, without a restart.
import { createHash, timingSafeEqual } from 'node:crypto';
import { statSync } from 'node:fs';
import { sanitiseAgent } from '../tools/types.js';
import {
  type AgentRecord,
  agentsFile,
  isReservedAgentName,
  keyIdOf,
  type Principal,
  readAgents,
  type RetiredRecord,
  verifyToken,
} from './store.js';

export type { Principal } from './store.js';

export function ownerPrincipal(agentHeader: string | string[] | undefined, sensitive: boolean): Principal {
  return { kind: 'owner', name: sanitiseAgent(agentHeader), scope: 'admin', folders: null, sensitive, rate: null };
}

const sha256 = (s: string): Buffer => createHash('sha256').update(s).digest();

export interface AuthOptions {
  /** Where agents.json is; null: the owner token alone. */
  dataDir: string | null;
  ownerToken: string;
  /** writes.agents_may_read_sensitive: what the owner token may read. */
  ownerSensitive: boolean;
  /** agents.default_rate: an agent's rate when it was given none. */
  defaultRate: string;
  /** Told of a damaged agents.json (every agent token is refused until it is fixed; the owner token still works). */
  onFileError?: (message: string) => void;
}

export class Authenticator {
  readonly #o: AuthOptions;
  readonly #owner: Buffer;
  #stamp = '';
  #byKey = new Map<string, AgentRecord>();
  /** Credentials taken back (revoked, rotated out), by key id: a refusal of one names its agent in the audit trail. */
  #retired = new Map<string, RetiredRecord>();
  /**
   * sha256(token) → the stored hash it was verified against. Still valid while the record keeps that hash (a rewrite
   * for another agent costs no scrypt again); a rotation or a revoke changes or drops the hash, and the entry with it.
   */
  #verified = new Map<string, string>();

  constructor(o: AuthOptions) {
    this.#o = o;
    this.#owner = sha256(o.ownerToken);
  }

  /** The principal for an `Authorization` header, or null (no token, an unknown, revoked or rotated-out one). */
  async resolve(authorization: string | undefined, agentHeader: string | string[] | undefined): Promise<Principal | null> {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!m?.[1]) return null;
    const token = m[1];
    const digest = sha256(token);
    // hashes of equal length compared in constant time: the time says nothing of the owner token
    if (timingSafeEqual(digest, this.#owner)) return ownerPrincipal(agentHeader, this.#o.ownerSensitive);
    if (!token.startsWith('mv_') || this.#o.dataDir === null) return null;
    this.#reload();
    const rec = this.#byKey.get(keyIdOf(token));
    // a reserved name (added before names were checked) would own the daemon's own work: its token is refused
    if (!rec || isReservedAgentName(rec.name)) return null;
    const cacheKey = digest.toString('hex');
    if (this.#verified.get(cacheKey) !== rec.hash) {
      if (!(await verifyToken(token, rec.hash))) return null;
      this.#verified.set(cacheKey, rec.hash);
    }
    return {
      kind: 'agent',
      name: rec.name,
      scope: rec.scope,
      folders: rec.folders,
      sensitive: rec.sensitive,
      rate: rec.rate ?? this.#o.defaultRate,
    };
  }

  /**
   * Whose taken-back credential the token in `authorization` is (revoked, or rotated out), or null: a token no agent
   * holds now (resolve said null). Verified against the stored hash, so only the real old token is named.
   */
  async retired(authorization: string | undefined): Promise<{ name: string; why: RetiredRecord['why'] } | null> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token?.startsWith('mv_') || this.#o.dataDir === null) return null;
    this.#reload();
    const rec = this.#retired.get(keyIdOf(token));
    if (!rec) return null;
    const cacheKey = sha256(token).toString('hex');
    if (this.#verified.get(cacheKey) !== rec.hash) {
      if (!(await verifyToken(token, rec.hash))) return null;
      this.#verified.set(cacheKey, rec.hash);
    }
    return { name: rec.name, why: rec.why };
  }

  /** Re-reads agents.json when it changed (a rewrite is a rename: a new inode); cheap when it did not (one stat). */
  #reload(): void {
    if (this.#o.dataDir === null) return;
    const st = statSync(agentsFile(this.#o.dataDir), { throwIfNoEntry: false, bigint: true });
    const stamp = st ? `${st.ino}:${st.mtimeNs}:${st.size}` : 'none';
    if (stamp === this.#stamp) return;
    this.#stamp = stamp;
    try {
      const f = readAgents(this.#o.dataDir);
      this.#byKey = new Map(f.agents.map((a) => [a.key_id, a]));
      this.#retired = new Map(f.retired.map((r) => [r.key_id, r]));
      const live = new Set([...this.#byKey.values(), ...this.#retired.values()].map((a) => a.hash));
      for (const [k, h] of this.#verified) if (!live.has(h)) this.#verified.delete(k);
    } catch (err) {
      this.#byKey = new Map();
      this.#retired = new Map();
      this.#o.onFileError?.((err as Error).message);
    }
  }
}
