// WebDAV locks and dead properties on disk (`<data dir>/webdav/locks.json`, `props.json`), so a gateway restart keeps
// them: a client holding a lock token still holds its lock, a property set by PROPPATCH is still there. Each change
// rewrites the file atomically (temp + fsync + rename); a missing file is empty, a damaged one starts empty and is reported,
// and a file that cannot be written (disk full) is reported while the state goes on in memory.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { replaceFileSync } from '../../../supervisors/runtime/durable-file.js';

const lockSchema = z.object({
  token: z.string(),
  root: z.string(),
  deep: z.boolean(),
  exclusive: z.boolean(),
  owner: z.string(),
  timeoutS: z.number(),
  expires: z.number(),
});
const propSchema = z.object({ name: z.object({ ns: z.string(), local: z.string() }), xml: z.string() });

export const LOCKS_FILE = z.array(lockSchema);
export const PROPS_FILE = z.array(z.tuple([z.string(), z.array(propSchema)]));

/** One JSON file's contents now, and how to replace them. */
export interface Persisted<T> {
  readonly initial: T;
  save(value: T): void;
}

export function persisted<T>(
  file: string,
  schema: z.ZodType<T>,
  empty: T,
  report: (problem: 'damaged' | 'unsaved', file: string, why: string) => void,
): Persisted<T> {
  const damaged = (f: string, why: string) => report('damaged', f, why);
  let initial = empty;
  let text: string | null = null;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') damaged(file, (err as Error).message);
  }
  if (text !== null) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      json = undefined;
      damaged(file, `not JSON: ${(err as Error).message}`);
    }
    if (json !== undefined) {
      const r = schema.safeParse(json);
      if (r.success) initial = r.data;
      else damaged(file, `not the expected shape: ${r.error.issues[0]?.message ?? 'invalid'}`);
    }
  }
  return {
    initial,
    save(value) {
      try {
        replaceFileSync(file, `${JSON.stringify(value)}\n`); // fsync'd before the rename: a crash keeps old or new
      } catch (err) {
        report('unsaved', file, (err as Error).message);
      }
    },
  };
}

/** Where the gateway keeps WebDAV state under the data dir. */
export const davStateFiles = (dataDir: string) => ({
  locks: path.join(dataDir, 'webdav', 'locks.json'),
  props: path.join(dataDir, 'webdav', 'props.json'),
});
