// bin/bundle.ts writes every bundle in ASCII: one character above U+00FF anywhere in a source (esbuild keeps comments
// as written) makes V8 hold the whole of it two bytes a character, in every thread that loads it. The escaping keeps
// what code means, and after `make build` no bundle (an entry or a chunk split from it) holds a byte above 0x7F.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import t from 'tap';
import { asciiOnly, ENTRIES } from '../../bin/bundle.js';
import { BUNDLE_DIR } from '../../supervisors/runtime/code-files.js';

const NOT_ASCII = /[\u0080-\uffff]/;

t.test('escaped code means what it meant: strings, templates, regular expressions, names and comments', async (t) => {
  const source = [
    '// a comment — with a dash, “quotes” and 仓库',
    '/* Zoë’s block comment 🦦 */',
    'const café = "otters — 仓库 🦦";',
    'const tpl = `${café.length}: ü ${"é"}`;',
    'const re = /[仓库]+|🦦/;',
    'const reU = /^\\p{Script=Han}+🦦$/u;',
    'const single = "\u00e9\u00ff";',
    '({ café, tpl, hits: "列出你的远程仓库 🦦".match(re)?.[0], u: reU.test("仓库🦦"), single, len: "🦦".length });',
  ].join('\n');
  const escaped = asciiOnly(source);
  t.notOk(NOT_ASCII.test(escaped), 'nothing above U+007F is left');
  t.ok(NOT_ASCII.test(source), 'the check sees what it looks for');
  t.same(vm.runInNewContext(escaped), vm.runInNewContext(source), 'evaluates to the same values');
  t.equal(asciiOnly('plain ascii; // ok'), 'plain ascii; // ok', 'ASCII passes unchanged');
});

t.test('after make build every bundle is ASCII (run make build first)', async (t) => {
  const files = readdirSync(BUNDLE_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
  t.ok(
    ENTRIES.every((e) => files.includes(e)),
    'every entry was bundled',
  );
  for (const e of files) {
    const bytes = readFileSync(path.join(BUNDLE_DIR, e));
    const at = bytes.findIndex((b) => b > 0x7f);
    t.equal(at, -1, `${e}: ${bytes.length} bytes, all ASCII`);
  }
});
