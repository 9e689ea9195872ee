// Categories 3 and 4 of the hostile run: notes an agent writes with hostile frontmatter (malformed YAML, alias
// bombs, huge blocks, language tags, duplicate keys, non-mappings, BOM + CRLF) and hostile markdown bodies (near the
// size cap, nested 10k deep, 100k-character lines, pathological emphasis and links, garbage, other encodings).
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_WRITE_BYTES, type Probe } from './hostile-payloads.js';
import type { Client } from './hostile-client.js';

const via = fc.constantFrom<'http' | 'mcp'>('http', 'http', 'http', 'mcp');
let n = 0;

function writeProbe(
  category: string,
  how: string,
  rel: string,
  content: string,
  v: 'http' | 'mcp',
  want: string,
  setup?: (vault: string) => void,
): Probe {
  const args = { path: rel, content };
  return {
    category,
    how,
    input: content,
    via: v,
    want,
    send: (c: Client) => (v === 'http' ? c.tool('vault_write', args) : c.mcp('vault_write', args)),
    ...(want === 'ok' ? { lands: { rel, content } } : {}),
    ...(setup ? { setup } : {}),
  };
}

const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
const scalar = fc.oneof(
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,20}$/).map((s) => s.trim() || 'x'),
  fc.integer().map(String),
);
const pairs = fc
  .uniqueArray(fc.tuple(key, scalar), { maxLength: 6, selector: ([k]) => k })
  .map((ps) => ps.map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`).join(''));
const body = fc.constantFrom('# Title\n\nSome body text.\n', '\nplain body\n', '', '## Heading\n\n- a\n- b\n');
const fm = (yaml: string, rest: string, eol = '\n') => `---${eol}${yaml.replace(/\n/g, eol)}---${eol}${rest.replace(/\n/g, eol)}`;

// Lines the YAML parser must refuse: unclosed flow collections and quotes, reserved indicators, tab indentation,
// a compact nested mapping, a sequence mixed into a mapping.
const MALFORMED = [
  'title: [unclosed\n',
  'k: "unterminated\n',
  'a: b: c\n',
  '@x: 1\n',
  'k: `x\n',
  'k: [1, 2\n',
  '{a: 1\n',
  'key:\n\t- x\n',
  '- a\nb: c\n',
  't: !!timestamp nope\n',
];
const malformed = fc
  .tuple(pairs, fc.constantFrom(...MALFORMED), body, via)
  .map(([ok, bad, b, v]) => writeProbe('frontmatter', 'malformed YAML', `Inbox/fm ${n++}.md`, fm(ok + bad, b), v, 'invalid_content'));

/** Billion laughs: each level a list of `width` aliases to the level below, `depth` levels: width^depth nodes. */
function bomb(depth: number, width: number): string {
  let y = 'l0: &l0 "lol"\n';
  for (let d = 1; d <= depth; d++) y += `l${d}: &l${d} [${Array.from({ length: width }, () => `*l${d - 1}`).join(', ')}]\n`;
  return y;
}
const bombs = fc
  .tuple(fc.integer({ min: 5, max: 12 }), fc.integer({ min: 6, max: 12 }), body, via)
  .map(([d, w, b, v]) =>
    writeProbe('frontmatter', `YAML alias bomb ${w}^${d}`, `Inbox/fm ${n++}.md`, fm(bomb(d, w), b), v, 'invalid_content'),
  );
const fewAliases = fc
  .tuple(body, via)
  .map(([b, v]) =>
    writeProbe('frontmatter', 'two harmless aliases', `Inbox/fm ${n++}.md`, fm('base: &b {x: 1}\none: *b\ntwo: *b\n', b), v, 'ok'),
  );

const huge = fc.tuple(fc.integer({ min: 1_000, max: 6_000 }), fc.boolean(), via).map(([keys, oneValue, v]) => {
  const yaml = oneValue
    ? `blob: "${'z'.repeat(keys * 18)}"\n`
    : Array.from({ length: keys }, (_, i) => `key_${i}: value number ${i}\n`).join('');
  return writeProbe('frontmatter', `huge frontmatter (${yaml.length} bytes)`, `Inbox/fm ${n++}.md`, fm(yaml, '# After\n\nbody\n'), v, 'ok');
});

// Language tags are only names to a YAML 1.2 parser: nothing is constructed or run, the note is ordinary text.
// keys with a hyphen, which `key` never generates: a random key equal to a tag's key would make a duplicate-key
// note, rightly refused (the long run's seed 4242 found the generator doing exactly that with `u`)
const TAGS = [
  'tag-fn: !!js/function "function () { process.exit(1) }"\n',
  'tag-re: !!js/regexp /x/g\n',
  'tag-u: !!js/undefined ""\n',
  'tag-x: !!python/object/apply:os.system ["id"]\n',
  'tag-c: !custom bar\n',
  'tag-p: !<tag:evil,2024:x> y\n',
];
const tags = fc
  .tuple(pairs, fc.constantFrom(...TAGS), body, via)
  .map(([ok, tag, b, v]) => writeProbe('frontmatter', 'language-specific YAML tag', `Inbox/fm ${n++}.md`, fm(ok + tag, b), v, 'ok'));

const dupes = fc
  .tuple(key, scalar, scalar, body, via)
  .map(([k, a, b2, b, v]) =>
    writeProbe(
      'frontmatter',
      'duplicate key',
      `Inbox/fm ${n++}.md`,
      fm(`${k}: ${JSON.stringify(a)}\nother: 1\n${k}: ${JSON.stringify(b2)}\n`, b),
      v,
      'invalid_content',
    ),
  );

const NON_MAPPING = ['- a\n- b\n', 'just a sentence\n', '42\n', '"a string"\n', '[1, 2]\n', 'true\n'];
const nonMapping = fc
  .tuple(fc.constantFrom(...NON_MAPPING), body, via)
  .map(([y, b, v]) => writeProbe('frontmatter', 'frontmatter that is not a mapping', `Inbox/fm ${n++}.md`, fm(y, b), v, 'invalid_content'));

const bomCrlf = fc
  .tuple(pairs, body, fc.boolean(), via)
  .map(([y, b, bom, v]) =>
    writeProbe(
      'frontmatter',
      `${bom ? 'BOM + ' : ''}CRLF frontmatter`,
      `Inbox/fm ${n++}.md`,
      (bom ? '\ufeff' : '') + fm(y || 'title: t\n', b, '\r\n'),
      v,
      'ok',
    ),
  );

// A person left a hostile note; the agent overwrites it with good content, which must win as sent.
const PERSON = [
  fm(bomb(9, 9), 'person body\n'),
  fm('a: [unclosed\n', 'x\n'),
  fm('- a\n- b\n', 'x\n'),
  fm('k: 1\nk: 2\n', 'x\n'),
  '\ufeff---\r\nbad: [\r\n---\r\nbody\r\n',
];
const overwrite = fc.tuple(fc.constantFrom(...PERSON), pairs, body, via).map(([old, y, b, v]) => {
  const rel = `Inbox/person ${n++}.md`;
  const setup = (vault: string) => {
    mkdirSync(path.join(vault, 'Inbox'), { recursive: true });
    writeFileSync(path.join(vault, rel), old);
  };
  return writeProbe('frontmatter', 'overwrite of a person’s hostile note', rel, fm(y || 'title: t\n', b), v, 'ok', setup);
});

export const frontmatterProbes: fc.Arbitrary<Probe> = fc.oneof(
  malformed,
  bombs,
  fewAliases,
  huge,
  tags,
  dupes,
  nonMapping,
  bomCrlf,
  overwrite,
);

// Markdown bodies go to a few rotating notes: each write replaces the last, so indexing keeps up with the run.
const slot = () => `Inbox/markdown ${n++ % 8}.md`;
const words = fc
  .array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'note', 'vault', 'memory', 'x'), { minLength: 5, maxLength: 12 })
  .map((w) => `${w.join(' ')}.\n\n`);

const nearMax = fc.tuple(words, fc.integer({ min: 0, max: 4_000 }), via).map(([para, slack, v]) => {
  // the whole note counts, heading included (CI's random seed once built 200,005 bytes and expected them to fit)
  const content = `# Big\n\n${para.repeat(Math.floor((MAX_WRITE_BYTES - slack) / para.length))}`;
  const bytes = Buffer.byteLength(content, 'utf8');
  return writeProbe(
    'markdown',
    `note of ${bytes} bytes, near writes.max_bytes`,
    slot(),
    content,
    v,
    bytes <= MAX_WRITE_BYTES ? 'ok' : 'too_large',
  );
});
const NESTERS = ['> ', '- ', '1. ', '> - ', '* ', '>'];
const nestedLine = fc
  .tuple(fc.constantFrom(...NESTERS), fc.integer({ min: 1_000, max: 10_000 }), via)
  .map(([u, k, v]) => writeProbe('markdown', `${JSON.stringify(u)} nested ${k} deep`, slot(), `${u.repeat(k)}deep\n`, v, 'ok'));
const nestedLines = fc.tuple(fc.constantFrom('> ', '  '), fc.integer({ min: 100, max: 300 }), via).map(([u, k, v]) => {
  const text = Array.from({ length: k }, (_, i) => (u === '> ' ? `${'>'.repeat(i + 1)} level ${i}` : `${u.repeat(i)}- level ${i}`)).join(
    '\n',
  );
  return writeProbe('markdown', `${k} lines nested one deeper each`, slot(), text, v, 'ok');
});
const longLine = fc
  .tuple(fc.integer({ min: 100_000, max: 120_000 }), fc.constantFrom('a', 'ab ', 'é', '#tag', '[[x]]', 'https://x.y/'), via)
  .map(([len, unit, v]) => {
    // a long line, kept under writes.max_bytes however many bytes a character takes
    const chars = Math.min(len, Math.floor((MAX_WRITE_BYTES - 64) / (Buffer.byteLength(unit) / unit.length)));
    return writeProbe(
      'markdown',
      `a ${chars}-character line of ${JSON.stringify(unit)}`,
      slot(),
      unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars),
      v,
      'ok',
    );
  });
const PATHOLOGICAL = [
  '*',
  '_a',
  '**a',
  '[a](',
  '[[',
  '![[',
  '<a',
  '`',
  '#a',
  '|',
  '\\',
  '[',
  '](',
  '*a_',
  '~~',
  '$$',
  '<!--',
  '```',
  '[^1]',
  '&amp',
  '#',
];
const emphasis = fc
  .tuple(fc.constantFrom(...PATHOLOGICAL), fc.integer({ min: 1_000, max: 30_000 }), via)
  .map(([u, k, v]) => writeProbe('markdown', `${JSON.stringify(u)} × ${k}`, slot(), u.repeat(k), v, 'ok'));
const garbage = fc
  .tuple(
    fc.array(
      fc.integer({ min: 1, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff),
      { minLength: 100, maxLength: 5_000 },
    ),
    via,
  )
  .map(([cps, v]) => {
    const text = String.fromCodePoint(...cps);
    return writeProbe('markdown', 'random code points', slot(), text.startsWith('---') ? `x${text}` : text, v, 'ok');
  });
const latin1 = fc.tuple(fc.uint8Array({ minLength: 50, maxLength: 5_000 }), via).map(([bytes, v]) => {
  const text = Buffer.from(bytes.map((b) => (b === 0 ? 0x20 : b))).toString('latin1');
  return writeProbe('markdown', 'bytes read as Latin-1', slot(), text, v, 'ok');
});
const utf16 = fc
  .tuple(fc.stringMatching(/^[A-Za-z ]{4,200}$/), fc.boolean(), via)
  .map(([text, asBytes, v]) =>
    asBytes
      ? writeProbe(
          'markdown',
          'UTF-16LE bytes with BOM, sent as Latin-1 text (holds NULs)',
          slot(),
          Buffer.from(`\ufeff${text}`, 'utf16le').toString('latin1'),
          v,
          'invalid_content',
        )
      : writeProbe('markdown', 'text starting with a byte-order mark', slot(), `\ufeff# ${text}\n`, v, 'ok'),
  );

export const markdownProbes: fc.Arbitrary<Probe> = fc.oneof(
  { arbitrary: nearMax, weight: 1 },
  { arbitrary: nestedLine, weight: 4 },
  { arbitrary: nestedLines, weight: 3 },
  { arbitrary: longLine, weight: 3 },
  { arbitrary: emphasis, weight: 6 },
  { arbitrary: garbage, weight: 4 },
  { arbitrary: latin1, weight: 3 },
  { arbitrary: utf16, weight: 3 },
);
