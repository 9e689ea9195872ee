// Whether an error is SQLite saying a file is not a whole database; apart from schema.ts so the command line's last
// resort (bin/cli.ts) can ask without loading SQLite.

/** SQLite's answer for a file that is not a whole database: truncated, overwritten, or not SQLite at all. */
export function isDamagedIndex(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB'));
}
