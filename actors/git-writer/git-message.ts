// memvault's commit messages: a subject a person can read in `git log --oneline`, and git trailers a program can
// parse back (who, what, why, which commit an undo reverts) — the audit trail lives in git itself.

/**
 * What a commit records. `import` is the first commit memvault makes of a folder's existing notes; `remember` appends a
 * fact to the day log, `forget` a tombstone.
 */
export type CommitOp = 'write' | 'delete' | 'move' | 'undo' | 'human' | 'import' | 'remember' | 'forget';
export const COMMIT_OPS: readonly CommitOp[] = ['write', 'delete', 'move', 'undo', 'human', 'import', 'remember', 'forget'];
/**
 * The ops an agent's undo may revert. A forget can be undone (the fact comes back); a remember cannot — the log is
 * append-only, and taking a fact back is a forget.
 */
export const UNDOABLE_OPS: readonly CommitOp[] = ['write', 'delete', 'move', 'forget'];

/** The `Memvault-*` trailers a commit may carry beside its op and paths. */
interface Trailers {
  agent?: string;
  reason?: string;
  /** For an undo: the full sha of the commit it reverts. */
  reverts?: string;
  /** The scheduler's skill that wrote it (meeting_note, daily_reflection, …). */
  skill?: string;
  /** The dream's run id and batch (`first..last`). */
  run?: string;
  batch?: string;
}

export interface CommitMessage extends Trailers {
  op: CommitOp;
  /** Vault-relative paths; for a move, [from, to]. */
  paths: string[];
  /** A sentence for people, placed between subject and trailers. */
  note?: string;
}

export interface Identity {
  name: string;
  email: string;
}

/** One commit as `GitRepo.log` reads it. Trailer fields are absent on commits memvault did not make. */
export interface LogEntry extends Trailers {
  sha: string;
  parents: string[];
  author: Identity;
  committer: Identity;
  /** Committer time, Unix seconds. */
  time: number;
  subject: string;
  op?: CommitOp;
  paths: string[];
  /** From a `Memvault-Reverts:` trailer, or from the "This reverts commit <sha>." line `git revert` writes. */
  reverts?: string;
}

const REASON_MAX = 300;

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL_RUN = /[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g;

/** One line, no control characters, capped: a reason must never break the trailer block. */
export function sanitizeLine(s: string, max = REASON_MAX): string {
  const one = s.replace(CONTROL_RUN, ' ').replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

// A path goes into a trailer as-is unless git's trailer parser or our reader could misread it (control characters,
// leading/trailing blanks, a leading quote); then it is written as a JSON string, which parsePathValue undoes.
function needsQuoting(p: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return /[\u0000-\u001f\u007f\u0085\u2028\u2029]/.test(p) || p !== p.trim() || p.startsWith('"');
}
export function pathValue(p: string): string {
  return needsQuoting(p) ? JSON.stringify(p) : p;
}
export function parsePathValue(v: string): string {
  if (v.startsWith('"')) {
    try {
      const s: unknown = JSON.parse(v);
      if (typeof s === 'string') return s;
    } catch {
      // not ours: keep the text as written
    }
  }
  return v;
}

function shown(p: string): string {
  return needsQuoting(p) ? JSON.stringify(p) : p;
}

export function subjectOf(msg: CommitMessage): string {
  const [first = '', second] = msg.paths;
  const more = msg.paths.length > 1 ? ` (+${msg.paths.length - 1} more)` : '';
  switch (msg.op) {
    case 'write':
    case 'delete':
      return `memvault: ${msg.op} ${shown(first)}${more}`;
    case 'move':
      return `memvault: move ${shown(first)} → ${shown(second ?? '?')}`;
    case 'undo':
      return `memvault: undo ${msg.paths.map(shown).slice(0, 2).join(', ')}${msg.paths.length > 2 ? ` (+${msg.paths.length - 2} more)` : ''}`;
    case 'human':
      return `memvault: human edit of ${msg.paths.length} note${msg.paths.length === 1 ? '' : 's'}`;
    case 'import':
      return 'memvault: initial import';
    case 'remember':
      return `memvault: remember in ${shown(first)}`;
    case 'forget':
      return `memvault: forget in ${shown(first)}`;
  }
}

/** The full message: subject, optional note, then one trailer block. */
export function renderMessage(msg: CommitMessage): string {
  const trailers = [`Memvault-Op: ${msg.op}`];
  if (msg.op !== 'import') for (const p of msg.paths) trailers.push(`Memvault-Path: ${pathValue(p)}`);
  if (msg.agent !== undefined) trailers.push(`Memvault-Agent: ${sanitizeLine(msg.agent, 120)}`);
  if (msg.reason !== undefined && sanitizeLine(msg.reason) !== '') trailers.push(`Memvault-Reason: ${sanitizeLine(msg.reason)}`);
  if (msg.reverts !== undefined) trailers.push(`Memvault-Reverts: ${msg.reverts}`);
  if (msg.skill !== undefined) trailers.push(`Memvault-Skill: ${sanitizeLine(msg.skill, 120)}`);
  if (msg.run !== undefined) trailers.push(`Memvault-Run: ${sanitizeLine(msg.run, 120)}`);
  if (msg.batch !== undefined) trailers.push(`Memvault-Batch: ${sanitizeLine(msg.batch, 120)}`);
  const note = msg.note === undefined ? '' : `${sanitizeLine(msg.note, 1000)}\n\n`;
  return `${subjectOf(msg)}\n\n${note}${trailers.join('\n')}\n`;
}

/** The `git log` format LogEntry is parsed from; use with `-z` (a NUL after each commit). */
export const LOG_FORMAT = ['%H', '%P', '%an', '%ae', '%cn', '%ce', '%ct', '%s', '%(trailers:only,unfold)', '%b'].join('%x00');
const LOG_FIELDS = 10;

const REVERT_LINE = /^This reverts commit ([0-9a-f]{40,64})\b/m;

/** Parses `git log -z --format=LOG_FORMAT` output. */
export function parseLog(stdout: string): LogEntry[] {
  const f = stdout.split('\0');
  const entries: LogEntry[] = [];
  for (let i = 0; i + LOG_FIELDS <= f.length; i += LOG_FIELDS) {
    const [sha, parents, an, ae, cn, ce, ct, subject, trailers, body] = f.slice(i, i + LOG_FIELDS) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const e: LogEntry = {
      sha: sha.replace(/^\n/, ''), // git puts the separator's newline before the next record
      parents: parents === '' ? [] : parents.split(' '),
      author: { name: an, email: ae },
      committer: { name: cn, email: ce },
      time: Number(ct),
      subject,
      paths: [],
    };
    for (const line of trailers.split('\n')) {
      const m = /^([A-Za-z0-9-]+):\s?(.*)$/.exec(line);
      if (!m) continue;
      const key = m[1]!.toLowerCase();
      const value = m[2]!.trim();
      if (key === 'memvault-op' && (COMMIT_OPS as readonly string[]).includes(value)) e.op = value as CommitOp;
      else if (key === 'memvault-path') e.paths.push(parsePathValue(value));
      else if (key === 'memvault-agent') e.agent = value;
      else if (key === 'memvault-reason') e.reason = value;
      else if (key === 'memvault-reverts' && /^[0-9a-f]{40,64}$/.test(value)) e.reverts = value;
      else if (key === 'memvault-skill') e.skill = value;
      else if (key === 'memvault-run') e.run = value;
      else if (key === 'memvault-batch') e.batch = value;
    }
    if (e.reverts === undefined) {
      const m = REVERT_LINE.exec(body);
      if (m) e.reverts = m[1];
    }
    entries.push(e);
  }
  return entries;
}
