// The vault folder removed and recreated under a running daemon: while it is gone the index is kept (status says
// `vault: missing`, searches answer, writes are refused); once it is back — with the same notes, or replaced by
// others — the watcher subscribes again, a full reconcile makes the index equal the folder, and git starts afresh.
import { mkdirSync, rmSync } from 'node:fs';
import { until } from './lib/daemon-process.js';
import {
  Checks,
  commitLog,
  fsck,
  git,
  indexContents,
  makeRig,
  logEvents,
  searchOk,
  settle,
  type DiskClockReport,
  type Rig,
} from './disk-common.js';

const FIRST: Record<string, string> = {
  'Projects/a.md': '# A\n\nThe lighthouse keeper logs the weather.\n',
  'Projects/b.md': '# B\n\nA note about the harbour crane.\n',
  'People/c.md': '# C\n\nCarol likes sailing.\n',
};
const SECOND: Record<string, string> = {
  'Daily/x.md': '# X\n\nAn entirely different vault about orchards.\n',
  'Reviews/y.md': '# Y\n\nQuarterly review of the orchard yield.\n',
};

function putNotes(dir: string, files: Record<string, string>, write: Rig['vault']['write']): void {
  mkdirSync(dir, { recursive: true });
  for (const [rel, c] of Object.entries(files)) write(rel, c);
}

async function status(r: Rig): Promise<any> {
  return (await r.daemon.api('GET', '/v1/status')).body?.index;
}

export async function runVaultRemoved(): Promise<DiskClockReport> {
  const c = new Checks();
  const rig = makeRig(FIRST);
  const v = rig.vault.dir;
  const d = rig.daemon;
  try {
    await d.start();
    await d.caughtUp();

    // 1. gone: detected, the index kept, searches answer, writes refused
    const t0 = performance.now();
    rmSync(v, { recursive: true, force: true });
    await until(
      'status to say the vault is missing',
      10_000,
      async () => ((await status(rig))?.vault === 'missing' ? true : undefined),
      50,
    );
    c.add('vault_removed.detected_as_missing', true, 'status index.vault = missing', performance.now() - t0);
    // deletes of the notes it held wait for the folder: watch a window longer than debounce + rename window
    let minDocs = Infinity;
    const windowEnd = performance.now() + 1_500;
    while (performance.now() < windowEnd) {
      minDocs = Math.min(minDocs, (await status(rig))?.documents ?? -1);
      await new Promise((r) => setTimeout(r, 100));
    }
    c.add(
      'vault_removed.index_kept_while_missing',
      minDocs === 3 && indexContents(rig.dataDir).docs.size === 3,
      `documents never fell below ${minDocs} (3 indexed)`,
    );
    const s = await searchOk(d, 'lighthouse');
    c.add(
      'vault_removed.search_answers_with_state',
      s.status === 200 && s.body.results.length === 1 && s.body.index?.vault === 'missing',
      `HTTP ${s.status}, ${s.body?.results?.length} results, index.vault ${s.body?.index?.vault}`,
    );
    const w = await d.tool('vault_write', { path: 'Inbox/while-gone.md', content: '# no\n' }, 'agent-1');
    c.add(
      'vault_removed.write_refused_unavailable',
      w.status === 503 && w.body?.error?.reason === 'unavailable',
      `HTTP ${w.status} ${w.body?.error?.reason}: ${String(w.body?.error?.message).slice(0, 120)}`,
    );

    // 2. back with the same notes: watched again, index equal to the folder, git made again
    const t1 = performance.now();
    putNotes(v, FIRST, rig.vault.write);
    await until(
      'status to say the vault is present',
      10_000,
      async () => ((await status(rig))?.vault === 'present' ? true : undefined),
      50,
    );
    const back = await settle(rig, 30_000);
    c.add('vault_removed.same_notes_back_index_matches', back.length === 0, back.join('; ') || 'index = vault', performance.now() - t1);
    rig.vault.write('Projects/d.md', '# D\n\nWritten by a person after the folder came back.\n');
    const watched = await settle(rig, 15_000);
    c.add(
      'vault_removed.os_watcher_resubscribed',
      watched.length === 0,
      watched.join('; ') || 'a new note written after the return was indexed',
    );
    const w2 = await d.tool('vault_write', { path: 'Inbox/after.md', content: '# After\n\nan agent writes again\n' }, 'agent-1');
    c.add(
      'vault_removed.write_after_return_commits',
      w2.status === 200 && typeof w2.body?.commit === 'string',
      `HTTP ${w2.status}: ${JSON.stringify(w2.body).slice(0, 160)}`,
    );
    const f1 = await fsck(v);
    c.add(
      'vault_removed.git_reinitialised_and_sound',
      f1 === null && (await commitLog(v)).length >= 2,
      `${f1 ?? 'fsck clean'}; log: ${(await commitLog(v)).join(' / ').slice(0, 200)}`,
    );
    let clean = '';
    try {
      await until(
        "people's notes to be committed",
        15_000,
        async () => ((clean = (await git(v, ['status', '--porcelain'])).out.trim()) === '' ? true : undefined),
        100,
      );
    } catch {
      /* reported */
    }
    c.add('vault_removed.people_notes_committed', clean === '', clean || 'git status clean');

    // 3. replaced at once by a different set of notes (within one check period): the index follows exactly
    const t2 = performance.now();
    rmSync(v, { recursive: true, force: true });
    putNotes(v, SECOND, rig.vault.write);
    const replaced = await settle(rig, 30_000);
    const docs = [...indexContents(rig.dataDir).docs.keys()].sort();
    c.add(
      'vault_replaced.index_equals_new_notes',
      replaced.length === 0 && docs.join(',') === Object.keys(SECOND).sort().join(','),
      `${replaced.join('; ') || 'index = vault'}; indexed: ${docs.join(', ')}`,
      performance.now() - t2,
    );
    const gone = await searchOk(d, 'lighthouse');
    c.add(
      'vault_replaced.old_notes_not_found',
      gone.status === 200 && gone.body.results.length === 0,
      `${gone.body?.results?.length} results for a word only the old vault had`,
    );
    const w3 = await d.tool('vault_write', { path: 'Inbox/third.md', content: '# Third\n\nin the replaced vault\n' }, 'agent-1');
    const f2 = await fsck(v);
    c.add(
      'vault_replaced.write_commits_in_new_repo',
      w3.status === 200 && typeof w3.body?.commit === 'string' && f2 === null,
      `HTTP ${w3.status}; ${f2 ?? 'fsck clean'}`,
    );
    const final = await settle(rig, 15_000);
    c.add('vault_replaced.index_matches_after_write', final.length === 0, final.join('; ') || 'index = vault');

    const alive = d.child !== null && d.child.exitCode === null;
    const exits = logEvents(rig.logFile, 'actor_exited', 'actor_escalated');
    const why = exits.map((e) => JSON.stringify(e).slice(0, 600)).join('; ');
    c.add(
      'vault_removed.no_crash_no_restarts',
      alive && exits.length === 0,
      `process ${alive ? 'alive' : 'gone'}, ${exits.length} actor exits logged${why ? `: ${why}` : ''}`,
    );
  } catch (err) {
    c.add('vault_removed.run', false, `threw: ${(err as Error).stack ?? String(err)}`);
  } finally {
    mkdirSync(v, { recursive: true });
    await d.stop().catch(() => undefined);
    rig.vault.cleanup();
  }
  return c.report();
}
