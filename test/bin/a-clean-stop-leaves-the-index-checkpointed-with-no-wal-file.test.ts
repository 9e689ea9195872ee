// A clean stop of `memvault start` (SIGINT, SIGTERM) leaves the index whole in index.sqlite: no write-ahead log beside
// it. The readers' connections (gateway, watcher, memory) closed after the store writer's, and a read-only
// connection closing last cannot checkpoint, so SQLite left a WAL of megabytes (and its -shm) in the data dir.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { openIndex } from '../../actors/store-writer/schema.js';
import { httpCall, makeVault, within } from '../helpers/daemon.js';
import { startCli } from '../helpers/run-cli.js';

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  t.test(`${signal}: the index is checkpointed and no WAL file is left`, async (t) => {
    const v = makeVault({ 'Inbox/a.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
    t.teardown(() => v.cleanup());
    const { child, url, exited } = await startCli(t, v.dir);
    const data = path.join(v.dir, '.memvault');
    const token = readFileSync(path.join(data, 'token'), 'utf8').trim();
    const note = { path: 'Inbox/beavers.md', content: '# Beavers\n\nBeavers build dams.\n', wait_indexed: true };
    const w = await httpCall(url, 'POST', '/v1/tools/vault_write', note, { token });
    t.match(w, { status: 200, body: { indexed: true } }, 'written and indexed before the stop');
    child.kill(signal);
    t.same(await within(exited, 60_000, `memvault start to stop on ${signal}`), [0, null], 'stopped cleanly');

    const db = path.join(data, 'index.sqlite');
    const wal = `${db}-wal`;
    t.ok(!existsSync(wal) || statSync(wal).size === 0, `no WAL left (${existsSync(wal) ? statSync(wal).size : 0} bytes)`);
    t.notOk(existsSync(`${db}-shm`), 'no -shm left');
    const idx = openIndex(db, { readonly: true });
    const notes = idx.prepare('SELECT source_id FROM memory_documents WHERE deleted_at IS NULL ORDER BY 1').pluck().all();
    idx.close();
    t.same(notes, ['Inbox/a.md', 'Inbox/beavers.md'], 'the index holds both notes, the written one too');
  });
}
