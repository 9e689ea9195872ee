// Disk full during vault writes: the vault on a small tmpfs filled up by a filler file, then agent writes (a new
// note, an overwrite) and a person's write cut short by ENOSPC — refused cleanly, nothing half-written, git sound,
// and once space is freed the same writes go through and the person's edit is committed.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { until } from './lib/daemon-process.js';
import { sha256 } from './lib/ledger.js';
import { fillDisk } from './lib/fill-disk.js';
import {
  Checks,
  commitCount,
  fsck,
  git,
  indexContents,
  logEvents,
  makeRig,
  restarts,
  searchOk,
  settle,
  tempFiles,
  type DiskClockReport,
} from './disk-common.js';

const EXISTING = 'Projects/existing.md';
const NEW = 'Inbox/new.md';
const PERSON = 'People/bob.md';
const TIGHT_HOLE = Number(process.env.H5_HOLE ?? 8192); // bytes left free: enough for the note, not for git's objects

export async function runDiskFull(): Promise<DiskClockReport> {
  const c = new Checks();
  let mounted = '';
  const rig = makeRig(
    { [EXISTING]: '# Existing\n\nThe lighthouse keeper logs the weather.\n', 'People/alice.md': '# Alice\n\nlikes tea\n' },
    {
      prepare: (dir) => {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir]);
        mounted = dir;
      },
    },
  );
  const v = rig.vault.dir;
  const d = rig.daemon;
  try {
    await d.start();
    await d.caughtUp();
    const before = readFileSync(path.join(v, EXISTING));
    const commitsBefore = await commitCount(v);

    // leave exactly a 64 KiB hole for the person, then fill everything else
    writeFileSync(path.join(v, '.reserve'), Buffer.alloc(64 << 10, 0x62));
    const filled = fillDisk(path.join(v, '.filler'));
    unlinkSync(path.join(v, '.reserve'));
    let personErr = '';
    try {
      writeFileSync(path.join(v, PERSON), `# Bob\n\n${'bob writes a long note about the harbour. '.repeat(5_000)}\n`);
    } catch (err) {
      personErr = (err as NodeJS.ErrnoException).code ?? String(err);
    }
    const personBytes = readFileSync(path.join(v, PERSON));
    c.add(
      'disk_full.person_write_truncated',
      personErr === 'ENOSPC' && personBytes.length > 0,
      `the person's write failed with ${personErr || 'nothing'} after ${personBytes.length} bytes (filler ${filled} bytes)`,
    );

    const t0 = performance.now();
    const created = await d.tool('vault_write', { path: NEW, content: '# New\n\nwritten while the disk is full\n' }, 'agent-1');
    const createMs = performance.now() - t0;
    const over = await d.tool('vault_write', { path: EXISTING, content: '# Existing\n\noverwritten while the disk is full\n' }, 'agent-1');
    for (const [name, r, ms] of [
      ['new_note', created, createMs],
      ['overwrite', over, undefined],
    ] as const) {
      const reason = r.body?.error?.reason;
      c.add(
        `disk_full.${name}_refused`,
        r.status === 507 && reason === 'disk_full',
        `HTTP ${r.status} ${reason}: ${String(r.body?.error?.message ?? JSON.stringify(r.body)).slice(0, 160)}`,
        ms,
      );
    }
    const after = readFileSync(path.join(v, EXISTING));
    c.add(
      'disk_full.existing_note_byte_identical',
      after.equals(before),
      `sha ${sha256(before).slice(0, 12)} → ${sha256(after).slice(0, 12)}`,
    );
    let newExists = true;
    try {
      readFileSync(path.join(v, NEW));
    } catch {
      newExists = false;
    }
    c.add('disk_full.new_note_not_created', !newExists, newExists ? `${NEW} exists` : 'absent');
    const temps = tempFiles(v);
    c.add('disk_full.no_temp_file_left', temps.length === 0, temps.join(', ') || 'none');
    const commitsFull = await commitCount(v);
    c.add('disk_full.no_commit_made', commitsFull === commitsBefore, `${commitsBefore} commits before, ${commitsFull} while full`);
    const f1 = await fsck(v);
    c.add('disk_full.git_fsck_clean_while_full', f1 === null, f1 ?? 'clean');
    const s = await searchOk(d, 'lighthouse');
    c.add(
      'disk_full.daemon_keeps_serving',
      s.status === 200 && s.body.results.length > 0,
      `search HTTP ${s.status}, ${s.body?.results?.length ?? 0} results`,
    );

    // the person's truncated note is indexed as what is on disk (the data dir is on another disk)
    const diff = await settle(rig, 30_000);
    const indexed = indexContents(rig.dataDir).docs.get(PERSON);
    c.add(
      'disk_full.truncated_person_file_indexed_as_on_disk',
      indexed === sha256(personBytes) && diff.length === 0,
      `index ${indexed?.slice(0, 12) ?? 'absent'}, disk ${sha256(personBytes).slice(0, 12)}; ${diff.join('; ') || 'index = vault'}`,
    );

    // nearly full: room for the note file but hardly any for git's objects — refused before the note is touched,
    // never "written but not committed"
    rmSync(path.join(v, '.filler'));
    writeFileSync(path.join(v, '.reserve'), Buffer.alloc(TIGHT_HOLE, 0x62));
    fillDisk(path.join(v, '.filler'));
    unlinkSync(path.join(v, '.reserve'));
    const agentCommits = async () => (await git(v, ['rev-list', '--count', '--author=memvault', 'HEAD'])).out.trim();
    const agentBefore = await agentCommits();
    const tight = await d.tool(
      'vault_write',
      { path: EXISTING, content: '# Existing\n\noverwritten with a page or two free\n' },
      'agent-1',
    );
    const tightAfter = readFileSync(path.join(v, EXISTING));
    const agentAfter = await agentCommits();
    c.add(
      'disk_full.nearly_full_write_refused_untouched',
      tight.status === 507 && tight.body?.error?.reason === 'disk_full' && tightAfter.equals(before) && agentAfter === agentBefore,
      `HTTP ${tight.status} ${tight.body?.error?.reason}; note ${tightAfter.equals(before) ? 'unchanged' : 'CHANGED'}; agent commits ${agentBefore} → ${agentAfter}; ${String(tight.body?.error?.message ?? '').slice(0, 120)}`,
    );
    const fT = await fsck(v);
    c.add('disk_full.git_fsck_clean_nearly_full', fT === null, fT ?? 'clean');

    // space again: the same writes succeed, each with one commit, and the person's edit gets committed too
    rmSync(path.join(v, '.filler'));
    const again = await d.tool('vault_write', { path: NEW, content: '# New\n\nwritten while the disk is full\n' }, 'agent-1');
    const again2 = await d.tool(
      'vault_write',
      { path: EXISTING, content: '# Existing\n\noverwritten while the disk is full\n' },
      'agent-1',
    );
    c.add(
      'disk_full.same_writes_succeed_after_freeing',
      again.status === 200 && again2.status === 200 && typeof again.body?.commit === 'string' && typeof again2.body?.commit === 'string',
      `HTTP ${again.status} / ${again2.status}: ${JSON.stringify(again.body).slice(0, 120)}`,
    );
    c.add(
      'disk_full.written_content_on_disk',
      readFileSync(path.join(v, EXISTING), 'utf8').includes('overwritten while the disk is full'),
      'overwrite landed',
    );
    let personCommitted = false;
    try {
      await until(
        "the person's edit to be committed",
        15_000,
        async () => ((await git(v, ['status', '--porcelain', '--', PERSON])).out.trim() === '' ? true : undefined),
        100,
      );
      personCommitted = true;
    } catch {
      /* reported below */
    }
    const failedHuman = logEvents(rig.logFile, 'vault_human_commit').filter((e) => e.reason !== undefined).length;
    c.add(
      'disk_full.person_edit_committed_once_space_is_back',
      personCommitted,
      `${(await git(v, ['status', '--porcelain'])).out.trim() || 'clean'}; ${failedHuman} failed attempts while full were retried`,
    );
    const f2 = await fsck(v);
    c.add('disk_full.git_fsck_clean_after', f2 === null, f2 ?? 'clean');
    const diff2 = await settle(rig, 30_000);
    c.add('disk_full.index_matches_vault_after', diff2.length === 0, diff2.join('; ') || 'index = vault');
    const n = restarts(rig.logFile);
    c.add('disk_full.no_actor_restarts', n === 0, `${n} actor exits logged`);
  } catch (err) {
    c.add('disk_full.run', false, `threw: ${(err as Error).stack ?? String(err)}`);
  } finally {
    await d.stop().catch(() => undefined);
    if (mounted) execFileSync('umount', ['-l', mounted]);
    rig.vault.cleanup();
  }
  return c.report();
}
