// Category 2 of the hostile run: request payloads — wrong JSON types for every argument, oversized content and
// bodies, non-JSON and non-UTF-8 bodies, lone surrogates, NUL, deep nesting, unknown tools, extra and
// prototype-pollution keys, FTS syntax in queries — each with the reason it must get.
import fc from 'fast-check';
import type { Client, RawResponse } from './hostile-client.js';

export const MAX_WRITE_BYTES = 200_000; // writes.max_bytes (the default, which the run keeps)
export const MAX_BODY_BYTES = 1_000_000; // the gateway's body cap: max(1 MB, 2 × max_bytes + 64 KiB)

export interface Probe {
  category: string;
  how: string;
  input: unknown;
  via: 'http' | 'mcp';
  /** The answer it must get: a reason code, `ok`, `http <status>` or `rpc <code>` (MCP protocol errors). */
  want: string;
  send(c: Client): Promise<RawResponse>;
  /** For a write that must succeed: where it lands (vault-relative) and the exact text it must hold. */
  lands?: { rel: string; content: string };
  /** Run before sending (e.g. a person's file the agent then overwrites). */
  setup?: (vault: string) => void;
}

type ArgType = 'string' | 'number' | 'boolean' | 'object' | 'enum';
const TOOL_ARGS: Record<string, { base: Record<string, unknown>; args: Record<string, ArgType> }> = {
  vault_read: { base: { path: 'Inbox/seed.md' }, args: { path: 'string' } },
  vault_write: {
    base: { path: 'Inbox/never-written.md', content: 'x' },
    args: { path: 'string', content: 'string', expected_mtime: 'number', reason: 'string', wait_indexed: 'boolean' },
  },
  vault_list: { base: {}, args: { folder: 'string', recursive: 'boolean' } },
  vault_link: { base: { path: 'Inbox/seed.md' }, args: { path: 'string' } },
  vault_undo_last: { base: {}, args: { only_mine: 'boolean', reason: 'string', wait_indexed: 'boolean' } },
  memory_search: { base: { query: 'seed' }, args: { query: 'string', k: 'number', mode: 'enum', filters: 'object' } },
};
export const TOOLS = Object.keys(TOOL_ARGS);

const json = fc.jsonValue({ maxDepth: 2 });
/** A value of any JSON type except `t` (and nothing a lenient schema could coerce into `t`). */
function wrongFor(t: ArgType): fc.Arbitrary<unknown> {
  const notString = fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(json, { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), json, { maxKeys: 3 }),
  );
  switch (t) {
    case 'string':
      return notString;
    case 'number':
      return fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.constant('1'),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.integer(), { maxLength: 3 }),
        fc.constant({}),
      );
    case 'boolean':
      return fc.oneof(
        fc.constantFrom('true', 'false', 'yes', ''),
        fc.integer({ min: 0, max: 1 }),
        fc.constant(null),
        fc.constant([]),
        fc.constant({}),
      );
    case 'object':
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(json, { maxLength: 3 }));
    case 'enum':
      return fc.oneof(fc.constantFrom('fuzzy', 'BM25', 'Hybrid', '', 'hybrid '), fc.integer(), fc.constant(null), fc.constant(['bm25']));
  }
}

const via = fc.constantFrom<'http' | 'mcp'>('http', 'http', 'http', 'mcp');
/** HTTP JSON answers a body-level refusal with a reason; MCP with a bare status (its JSON-RPC error has no reason). */
const bodyLevel = (v: 'http' | 'mcp', reason: string, status: number) => (v === 'http' ? reason : `http ${status}`);

function send(tool: string, v: 'http' | 'mcp', args: unknown, raw?: Buffer | string) {
  return (c: Client) =>
    v === 'http'
      ? c.tool(tool, args, raw === undefined ? {} : { raw })
      : c.mcp(tool, args, raw === undefined ? {} : { raw: mcpRaw(tool, raw) });
}

/** The raw argument text wrapped in a JSON-RPC tools/call envelope, byte for byte. */
function mcpRaw(tool: string, rawArgs: Buffer | string): Buffer {
  return Buffer.concat([
    Buffer.from(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":`),
    Buffer.from(rawArgs),
    Buffer.from('}}'),
  ]);
}

let n = 0;
const fresh = () => `Inbox/payload ${n++}.md`;

const wrongType: fc.Arbitrary<Probe> = fc
  .constantFrom(...TOOLS)
  .chain((tool) => fc.tuple(fc.constant(tool), fc.constantFrom(...Object.keys(TOOL_ARGS[tool]!.args))))
  .chain(([tool, arg]) => fc.tuple(fc.constant(tool), fc.constant(arg), wrongFor(TOOL_ARGS[tool]!.args[arg]!), via))
  .map(([tool, arg, value, v]) => {
    const args = { ...TOOL_ARGS[tool]!.base, [arg]: value };
    return {
      category: 'payloads',
      how: `wrong type for ${tool}.${arg}`,
      input: args,
      via: v,
      want: 'bad_request',
      send: send(tool, v, args),
    };
  });

const tooLarge: fc.Arbitrary<Probe> = fc
  .tuple(fc.integer({ min: 1, max: 250_000 }), fc.constantFrom('a', 'é', '日', '😀'), via)
  .map(([over, ch, v]) => {
    const bytes = Buffer.byteLength(ch);
    const content = ch.repeat(Math.ceil((MAX_WRITE_BYTES + over) / bytes));
    const args = { path: fresh(), content };
    return {
      category: 'payloads',
      how: `content ${Buffer.byteLength(content)} bytes, over writes.max_bytes`,
      input: `${ch} × ${content.length}`,
      via: v,
      want: 'too_large',
      send: send('vault_write', v, args),
    };
  });

const overBody: fc.Arbitrary<Probe> = fc.tuple(fc.integer({ min: 1, max: 600_000 }), via).map(([over, v]) => {
  const raw = JSON.stringify({ path: fresh(), content: 'b'.repeat(MAX_BODY_BYTES + over) });
  return {
    category: 'payloads',
    how: `body ${raw.length} bytes, over the gateway's body limit`,
    input: `<${raw.length}-byte body>`,
    via: v,
    want: bodyLevel(v, 'too_large', 413),
    send: send('vault_write', v, null, raw),
  };
});

const notJson: fc.Arbitrary<Probe> = fc
  .tuple(
    fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.constantFrom(
        '{',
        '{"path":',
        "{'path': 'x'}",
        '{"path":"Inbox/a.md",}',
        'undefined',
        'NaN',
        '{"a":01}',
        '[1,2',
        '\u0000',
        '{"content":"\\x41"}',
        '{"path":"a"}}',
      ),
    ),
    via,
  )
  .filter(([s]) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return s.trim() !== '';
    }
  })
  .map(([s, v]) => ({
    category: 'payloads',
    how: 'a body that is not JSON',
    input: s,
    via: v,
    want: bodyLevel(v, 'bad_request', 400),
    send: send('vault_write', v, null, s),
  }));

const BAD_UTF8 = [
  [0xc3, 0x28],
  [0xff],
  [0xfe, 0xfe],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
  [0xf4, 0x90, 0x80, 0x80],
];
const invalidUtf8: fc.Arbitrary<Probe> = fc.tuple(fc.constantFrom(...BAD_UTF8), fc.string({ maxLength: 20 }), via).map(([bad, text, v]) => {
  const raw = Buffer.concat([
    Buffer.from(`{"path":${JSON.stringify(fresh())},"content":"`),
    Buffer.from(JSON.stringify(text).slice(1, -1)),
    Buffer.from(bad),
    Buffer.from('"}'),
  ]);
  return {
    category: 'payloads',
    how: 'invalid UTF-8 bytes in the body',
    input: raw,
    via: v,
    want: bodyLevel(v, 'bad_request', 400),
    send: send('vault_write', v, null, raw),
  };
});

const badText: fc.Arbitrary<Probe> = fc
  .tuple(fc.string({ maxLength: 30 }), fc.constantFrom('\ud800', '\udbff', '\udc00', '\u0000', '\udfff\ud800'), fc.nat(), via)
  .map(([text, bad, at, v]) => {
    const i = at % (text.length + 1);
    const args = { path: fresh(), content: text.slice(0, i) + bad + text.slice(i) };
    const how = bad === '\u0000' ? 'NUL in content' : 'lone surrogate in content';
    return { category: 'payloads', how, input: args.content, via: v, want: 'invalid_content', send: send('vault_write', v, args) };
  });

const nested: fc.Arbitrary<Probe> = fc
  .tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.constantFrom('top', 'content', 'extra', 'open', 'object'), via)
  .map(([depth, where, v]) => {
    const arr = '['.repeat(depth) + ']'.repeat(depth);
    const raw =
      where === 'top'
        ? arr
        : where === 'content'
          ? `{"path":"Inbox/nested.md","content":${arr}}`
          : where === 'extra'
            ? `{"path":"Inbox/nested.md","content":"x","deep":${arr}}`
            : where === 'open'
              ? '['.repeat(depth)
              : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    // parsed or not, none of these is an object of strings: the schema (or the parser) refuses it
    // over MCP a top-level array becomes `arguments` itself: not an object, so invalid params
    const want = where === 'open' ? bodyLevel(v, 'bad_request', 400) : v === 'mcp' && where === 'top' ? 'rpc -32602' : 'bad_request';
    return {
      category: 'payloads',
      how: `JSON nested ${depth} deep (${where})`,
      input: `<${raw.length}-byte nested JSON>`,
      via: v,
      want,
      send: send('vault_write', v, null, raw),
    };
  });

const unknownTool: fc.Arbitrary<Probe> = fc
  .tuple(
    fc.oneof(
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.constantFrom(
        'vault_delete',
        'vault_move',
        'VAULT_READ',
        'vault_read ',
        '../status',
        '%2e%2e',
        'vault_write/x',
        '__proto__',
        'constructor',
        'toString',
      ),
    ),
    via,
  )
  .filter(([name]) => !TOOLS.includes(name))
  .map(([name, v]) => ({
    category: 'payloads',
    how: 'an unknown tool name',
    input: name,
    via: v,
    want: v === 'http' ? 'not_found' : 'rpc -32602',
    send: send(name, v, { path: 'Inbox/seed.md' }),
  }));

const EVIL_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'PATH',
  'Content',
  'path ',
  'isAdmin',
  'expected_hash',
];
const extraKey: fc.Arbitrary<Probe> = fc
  .tuple(fc.constantFrom(...TOOLS), fc.oneof(fc.constantFrom(...EVIL_KEYS), fc.string({ minLength: 1, maxLength: 12 })), json, via)
  .map(([tool, key, value, v]) => {
    const base = TOOL_ARGS[tool]!.base;
    const taken = key in TOOL_ARGS[tool]!.args;
    const k = taken ? `${key}_extra` : key;
    // built as text: an object literal with `__proto__` would set the prototype rather than add a key
    const raw = `{${[...Object.entries(base).map(([a, b]) => `${JSON.stringify(a)}:${JSON.stringify(b)}`), `${JSON.stringify(k)}:${JSON.stringify(value ?? null)}`].join(',')}}`;
    return {
      category: 'payloads',
      how: `extra key ${JSON.stringify(k)} for ${tool}`,
      input: raw,
      via: v,
      want: 'bad_request',
      send: send(tool, v, null, raw),
    };
  });

const FTS = [
  '"',
  '""',
  'NEAR(a b)',
  'a*',
  '*',
  '^a',
  'a OR',
  'AND',
  'NOT',
  '-a',
  '(a',
  'a)',
  'col:a',
  '{a b}',
  "'",
  '\\',
  '%',
  '_',
  ';',
  '--',
  '/*',
  'a:b:c',
  '\u0000x',
  '+',
];
const search: fc.Arbitrary<Probe> = fc
  .tuple(
    fc.array(fc.oneof(fc.constantFrom(...FTS), fc.string({ maxLength: 8 }), fc.constantFrom('seed', 'note', 'walrus')), {
      minLength: 1,
      maxLength: 8,
    }),
    fc.constantFrom('hybrid', 'bm25', 'vector'),
    via,
  )
  .map(([parts, _mode, _v]) => ['seed', ...parts].join(' ').slice(0, 300))
  .chain((query) => fc.tuple(fc.constant(query), fc.constantFrom('hybrid', 'bm25', 'vector'), via))
  .map(([query, mode, v]) => {
    const args = { query, mode };
    return { category: 'payloads', how: 'search with query syntax', input: args, via: v, want: 'ok', send: send('memory_search', v, args) };
  });

export const payloadProbes: fc.Arbitrary<Probe> = fc.oneof(
  { arbitrary: wrongType, weight: 6 },
  { arbitrary: tooLarge, weight: 1 },
  { arbitrary: overBody, weight: 1 },
  { arbitrary: notJson, weight: 3 },
  { arbitrary: invalidUtf8, weight: 2 },
  { arbitrary: badText, weight: 2 },
  { arbitrary: nested, weight: 1 },
  { arbitrary: unknownTool, weight: 2 },
  { arbitrary: extraKey, weight: 4 },
  { arbitrary: search, weight: 3 },
);
