// Making a folder memvault's repository: `git init` if needed, refuse a folder inside another work tree, exclude
// .memvault/ locally, import the notes already there as the person's first commit, and learn what git tracks.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fail, type Failure } from '../../messages/common.js';
import { git, type GitEnv, type GitFailure, type GitOutput, type GitRunOptions } from './git-cli.js';
import { renderMessage, type Identity } from './git-message.js';

/** The folder memvault keeps its own state in; never committed. */
export const STATE_DIR = '.memvault';
const EXCLUDE_LINE = `/${STATE_DIR}/`;

export function identityEnv(who: Identity): GitEnv {
  return { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email };
}

export interface Prepared {
  ok: true;
  gitDir: string;
  /** Where the branches and packed-refs are (the main repository's .git for a linked work tree). */
  commonDir: string;
  /** Where git keeps objects and the index (a linked work tree's objects are the main repository's). */
  objectsDir: string;
  indexFile: string;
  /** 40 for SHA-1 repositories, 64 for SHA-256. */
  hexLen: number;
  tracked: Set<string>;
}

/** `real` is the vault root with symlinks resolved. */
export async function prepareRepository(
  real: string,
  opts: { person: Identity; env: GitEnv; writeConfig: string[] },
): Promise<Prepared | Failure<'git_failed' | 'inside_repo'>> {
  const run = (args: string[], o: GitRunOptions = {}): Promise<GitOutput | GitFailure> =>
    git(real, args, { ...o, env: { ...opts.env, GIT_LITERAL_PATHSPECS: '1', ...o.env } });

  const where = [
    'rev-parse',
    '--show-toplevel',
    '--show-object-format',
    '--absolute-git-dir',
    '--git-path',
    'info/exclude',
    '--git-path',
    'objects',
    '--git-path',
    'index',
    '--git-common-dir',
  ];
  let info = await run(where);
  if (!info.ok && /not a git repository/i.test(info.stderr)) {
    const init = await run(['init', '-q', '-b', 'main']);
    if (!init.ok) return fail('git_failed', init.message);
    info = await run(where);
  }
  if (!info.ok) return fail('git_failed', info.message);
  const [top = '', format = 'sha1', gitDir = '', exclude = '', objects = '', index = '', common = ''] = info.stdout.split('\n');
  if (path.resolve(top) !== real) {
    return fail(
      'inside_repo',
      `${real} is inside the git work tree ${top}; point memvault at ${top}, or run \`git init\` in ${real} to give the vault its own repository`,
    );
  }

  // Exclude our state folder locally: a line in .git/info/exclude, written once.
  const excludePath = path.resolve(real, exclude);
  let current = '';
  try {
    current = await readFile(excludePath, 'utf8');
  } catch {
    // no exclude file yet (git init without templates): create it below
  }
  if (!current.split(/\r?\n/).some((l) => [EXCLUDE_LINE, `${STATE_DIR}/`, `/${STATE_DIR}`, STATE_DIR].includes(l.trim()))) {
    try {
      await mkdir(path.dirname(excludePath), { recursive: true });
      const sep = current === '' || current.endsWith('\n') ? '' : '\n';
      await appendFile(excludePath, `${sep}# memvault keeps its index and state here; never commit it\n${EXCLUDE_LINE}\n`);
    } catch (err) {
      return fail('git_failed', `cannot add ${EXCLUDE_LINE} to ${excludePath} (${(err as Error).message}); fix its permissions`);
    }
  }

  const head = await run(['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
  if (!head.ok) {
    if (head.code !== 1) return fail('git_failed', head.message);
    // No commit yet: import the notes already there, as the person's, so the first agent change diffs against them.
    const add = await run(['add', '--', ':(icase)*.md'], { env: { GIT_LITERAL_PATHSPECS: '0' } });
    if (!add.ok && !/did not match any files/.test(add.stderr)) return fail('git_failed', add.message);
    const c = await run([...opts.writeConfig, 'commit', '-q', '--allow-empty', '--no-verify', '--cleanup=whitespace', '-F', '-'], {
      input: renderMessage({ op: 'import', paths: [], note: 'The notes that were in the folder before memvault started.' }),
      env: identityEnv(opts.person),
    });
    if (!c.ok) return fail('git_failed', c.message);
  }

  const ls = await run(['ls-files', '-z']);
  if (!ls.ok) return fail('git_failed', ls.message);
  const tracked = new Set(ls.stdout.split('\0').filter((p) => p !== ''));
  return {
    ok: true,
    gitDir,
    commonDir: path.resolve(real, common),
    objectsDir: path.resolve(real, objects),
    indexFile: path.resolve(real, index),
    hexLen: format.trim() === 'sha256' ? 64 : 40,
    tracked,
  };
}
