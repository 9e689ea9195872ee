// An index file SQLite cannot read (garbage written over it), met by the commands that open it without a daemon:
// `status`, `search`, `prune` and `models list` printed a SqliteError's stack; each now says `index_damaged` in one
// line naming the file and what mends it, and exits 1. `doctor` said nothing of the index; it now fails an index check.
// A damaged page found after the file opened is said in one line as well.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { openIndex } from '../../actors/store-writer/schema.js';
import { makeVault } from '../helpers/daemon.js';
import { memvault as cli } from '../helpers/run-cli.js';
import { damageTable, indexedThenStopped } from '../main/helpers/indexed-then-stopped.js';

t.test('commands over a damaged index file say so in one line and exit 1', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n\nA note.\n' });
  t.teardown(() => v.cleanup());
  const dataDir = path.join(v.dir, '.memvault');
  mkdirSync(dataDir);
  const file = path.join(dataDir, 'index.sqlite');
  const garbage = Buffer.alloc(64 * 1024, 0x5a);
  writeFileSync(file, garbage);
  const line = new RegExp(
    `^memvault: index_damaged: the index file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be read \\(file is not a database\\) — the daemon moves it aside as index\\.sqlite\\.damaged-<ms> and rebuilds it at its next start \\(memvault start\\), or \`memvault reindex\` rebuilds it now\\n$`,
  );
  for (const args of [
    ['status'],
    ['status', '--json'],
    ['status', '--files'],
    ['search', 'note'],
    ['search', '--mode', 'bm25', 'note'],
    ['prune'],
    ['models', 'list'],
  ]) {
    const r = await cli([...args, '--vault', v.dir]);
    t.equal(r.code, 1, `${args.join(' ')} exits 1`);
    t.match(r.stderr, line, `${args.join(' ')} says index_damaged in one line, with no stack`);
    t.equal(r.stdout, '', `${args.join(' ')} prints nothing on stdout`);
  }
  const d = await cli(['doctor', '--vault', v.dir]);
  t.equal(d.code, 1, 'doctor exits 1');
  t.match(
    d.stdout,
    /\nFAIL\s+index\s+index_damaged: the index file .* cannot be read \(file is not a database\) — the daemon moves it aside/,
  );
  t.match(d.stdout, /\nok\s+vault\s+/, 'the other checks still run');
  t.same(readFileSync(file), garbage, 'no command changed the damaged file');
  t.same(
    readdirSync(dataDir).filter((f) => f.includes('damaged')),
    [],
    'nothing was moved aside by a command that runs no daemon',
  );
});

t.test('a damaged page met after the index opened is said in one line too', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n\nA note.\n' });
  t.teardown(() => v.cleanup());
  const dataDir = path.join(v.dir, '.memvault');
  mkdirSync(dataDir);
  const file = path.join(dataDir, 'index.sqlite');
  // a real index whose schema reads but whose tables' and indexes' root pages are garbage: the open works, the first read fails
  const db = openIndex(file, { readonly: false });
  const roots = db.prepare(`SELECT rootpage FROM sqlite_schema WHERE rootpage > 1`).pluck().all() as number[];
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.pragma('journal_mode = DELETE');
  db.close();
  const fd = openSync(file, 'r+');
  for (const page of roots) writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (page - 1) * pageSize);
  closeSync(fd);
  const r = await cli(['status', '--vault', v.dir]);
  t.equal(r.code, 1);
  t.match(
    r.stderr,
    /^memvault: index_damaged: the index file cannot be read \(database disk image is malformed\) — `memvault reindex` rebuilds it from the vault\n$/,
  );
});

t.test('doctor reads every page: a damaged one the model row does not touch fails its index check', async (t) => {
  const { v, cfg } = await indexedThenStopped(t);
  const file = path.join(cfg.data_dir, 'index.sqlite');
  const healthy = await cli(['doctor', '--config', cfg.config_file!, '--vault', v.dir]);
  t.match(healthy.stdout, /\nok\s+index\s+/, 'an intact index passes');
  damageTable(file, 'memory_fts_data');
  const before = readFileSync(file);
  // doctor read only the model's row of the file, and said `ok index`
  const d = await cli(['doctor', '--config', cfg.config_file!, '--vault', v.dir]);
  t.equal(d.code, 1, 'doctor exits 1');
  t.match(
    d.stdout.replace(/\s+/g, ' '),
    / FAIL index index_damaged: the index file .* has damaged pages \(.+\) — a running daemon rebuilds it when a read or a write meets them, `memvault reindex` rebuilds it now/,
  );
  t.same(readFileSync(file), before, 'doctor changed nothing');
});
