// The same name typed in NFD (as macOS hands it over) or NFC lands on one NFC-named note, never on two look-alikes.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { resolveVaultPath } from '../../../actors/git-writer/vault/paths.js';
import { AGENT, ALLOWLIST, sandbox, writerFor } from './helpers.js';

const NFC = 'Inbox/Caf\u00e9 r\u00e9sum\u00e9.md';
const NFD = 'Inbox/Cafe\u0301 re\u0301sume\u0301.md';

t.test('NFD and NFC inputs resolve to the same NFC path', async (t) => {
  const s = sandbox(t);
  t.not(NFC, NFD, 'the two inputs differ as strings');
  const a = resolveVaultPath(s.vault, NFC, { allowlist: ALLOWLIST });
  const b = resolveVaultPath(s.vault, NFD, { allowlist: ALLOWLIST });
  t.same(a, b);
  t.same(a, { ok: true, rel: NFC, abs: path.join(s.realVault, NFC) });
});

t.test('writing through both spellings leaves one file, named in NFC, holding the last write', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s);
  const first = await writer.apply({ op: 'write', path: NFD, content: 'first\n' }, AGENT);
  const second = await writer.apply({ op: 'write', path: NFC, content: 'second\n' }, AGENT);
  t.same(first.ok && first.paths, [NFC]);
  t.same(second.ok && second.paths, [NFC]);
  const names = readdirSync(path.join(s.vault, 'Inbox')).filter((n) => n !== 'existing.md');
  t.same(names, [NFC.slice('Inbox/'.length)], 'exactly one note, with the NFC name');
  t.equal(readFileSync(path.join(s.vault, NFC), 'utf8'), 'second\n');
  const moved = await writer.apply({ op: 'move', from: NFD, to: 'Inbox/plain.md' }, AGENT);
  t.same(moved.ok && moved.paths, [NFC, 'Inbox/plain.md'], 'an NFD path finds the NFC note again');
});
