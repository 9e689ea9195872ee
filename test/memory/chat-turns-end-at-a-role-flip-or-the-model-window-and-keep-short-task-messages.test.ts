// Chat turns are cut where the role flips from assistant back to user or where the model's window is full; short
// messages are kept only when they name a task verb (as a whole token: "callous" is not "call"); the cut depends
// on the messages alone, so any arrival order or a repeat gives the same turns. Real USE-lite tokenizer.
import t from 'tap';
import { ChatSession, keepMessage, taskVerbMatcher, type ChatMessage, type ChatSettings } from '../../actors/memory/chat.js';
import { loadUseLiteTokenizer } from '../../actors/embedder/use-lite/tokenizer.js';
import type { ChatRole } from '../../messages/episodes.js';

const tokens = loadUseLiteTokenizer();
const settings = (over: Partial<ChatSettings> = {}): ChatSettings => ({
  indexRoles: new Set<ChatRole>(['user', 'assistant']),
  minChars: 12,
  hasTaskVerb: taskVerbMatcher(['call', 'schedule', 'email', 'ship']),
  maxTokens: tokens.maxTokens,
  tokens,
  ...over,
});

let seq = 0;
const msg = (id: string, role: ChatRole, text: string, atMs: number): ChatMessage => ({
  seq: ++seq,
  id,
  role,
  text,
  atMs,
  rt: 1_000,
  agent: 'a',
});
const texts = (s: ChatSession, st = settings()) => s.turns(st).map((d) => d.chunks.map((c) => c.content).join(''));
const ids = (s: ChatSession, st = settings()) => s.turns(st).map((d) => d.sourceId);

t.test('task verbs match whole tokens and their -s/-ed/-ing and e-drop forms only', async (t) => {
  const has = taskVerbMatcher(['call', 'schedule', 'email', 'ship']);
  for (const yes of [
    'call Tom',
    'Calls Tom',
    'called the bank',
    'calling mum',
    'schedule it',
    'scheduling now',
    'scheduled!',
    'schedules',
    'emailed her',
    'shipped it',
    'shipping soon',
  ])
    t.ok(has(yes), `"${yes}" names a task`);
  for (const no of ['callous remark', 'callable api', 'recall that', 'schedulers', 'shipment', 'e-mail'])
    t.notOk(has(no), `"${no}" does not`);
});

t.test('short messages are dropped unless they name a task; other roles are not indexed', async (t) => {
  const s = settings();
  t.notOk(keepMessage('user', 'ok thanks', s), 'under min_chars and no task verb');
  t.ok(keepMessage('user', 'call Tom', s), 'rescued by a task verb');
  t.notOk(keepMessage('user', 'callous!', s), 'not by a word that only starts like one');
  t.ok(keepMessage('assistant', 'That sounds like a plan to me.', s));
  t.notOk(keepMessage('system', 'You are a helpful assistant for the team.', s), 'system is not in index_roles');
  t.notOk(keepMessage('tool', '{"result": "a long enough tool output"}', s));
  t.ok(keepMessage('tool', '{"result": "a long enough tool output"}', settings({ indexRoles: new Set(['tool']) })), 'unless configured');
});

t.test('a turn ends where the role flips from assistant back to user', async (t) => {
  const s = new ChatSession('s', 1, 0);
  s.put(msg('1', 'user', 'Where should the offsite be this spring?', 1));
  s.put(msg('2', 'assistant', 'Lisbon is warm and cheap in April.', 2));
  s.put(msg('3', 'assistant', 'Porto is an option as well.', 3));
  s.put(msg('4', 'user', 'Book Lisbon for the second week.', 4));
  s.put(msg('5', 'user', 'And tell the team about it.', 5));
  t.same(ids(s), ['s:1-3', 's:4-5'], 'source ids are {session}:{first}-{last}');
  t.same(texts(s), [
    'User: Where should the offsite be this spring?\nAssistant: Lisbon is warm and cheap in April.\nAssistant: Porto is an option as well.',
    'User: Book Lisbon for the second week.\nUser: And tell the team about it.',
  ]);
});

t.test('a turn ends before a message that would overflow the model window', async (t) => {
  const s = new ChatSession('w', 1, 0);
  const sentence = 'the quarterly planning document lists every milestone we agreed on with the design partners';
  for (let i = 0; i < 8; i++) s.put(msg(String(i), 'user', `${sentence} number ${i}`, i));
  const turns = s.turns(settings());
  t.ok(turns.length > 1, `cut into ${turns.length} turns`);
  for (const d of turns) {
    const n = tokens.count(d.chunks.map((c) => c.content).join(''));
    t.ok(n <= tokens.maxTokens, `${d.sourceId}: ${n} tokens fit the ${tokens.maxTokens}-token window`);
    t.equal(d.chunks.length, 1, 'one chunk');
  }
  const one = new ChatSession('big', 1, 0);
  one.put(msg('x', 'user', `${sentence} `.repeat(40), 1));
  const [big] = one.turns(settings());
  t.ok(big!.chunks.length > 1, 'a single message longer than the window is one turn in several chunks');
  t.equal(big!.chunks.map((c) => c.content).join(''), `User: ${`${sentence} `.repeat(40).trim()}`, 'that join back to the text exactly');
});

t.test('the same messages in any arrival order, or sent twice, give the same turns', async (t) => {
  const all = [
    msg('a', 'user', 'Can you schedule the design review?', 10),
    msg('b', 'assistant', 'Done, Thursday at ten works for everyone.', 20),
    msg('c', 'user', 'call Tom', 30),
    msg('d', 'assistant', 'I will ring him after lunch today.', 40),
    msg('e', 'user', 'ok', 50),
    msg('f', 'user', 'Also email the agenda to the whole group.', 60),
  ];
  const inOrder = new ChatSession('s', 1, 0);
  for (const m of all) inOrder.put(m);
  const shuffled = new ChatSession('s', 1, 0);
  for (const i of [4, 1, 5, 0, 3, 2]) shuffled.put(all[i]!);
  for (const i of [2, 0]) shuffled.put({ ...all[i]! }); // a replayed message replaces itself
  t.same(ids(shuffled), ids(inOrder));
  t.same(texts(shuffled), texts(inOrder));
  t.same(ids(inOrder), ['s:a-b', 's:c-d', 's:f-f'], '"call Tom" is kept, "ok" is not');
  t.ok(shuffled.remove('c'));
  t.same(ids(shuffled), ['s:a-d', 's:f-f'], 'removing a message re-cuts around it');
});
