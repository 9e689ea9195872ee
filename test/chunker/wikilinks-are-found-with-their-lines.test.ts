// Wikilinks: every Obsidian form, with the 1-based file line it sits on; none from code.
import t from 'tap';
import { parse } from './helpers.js';

t.test('every link form, with file line numbers that count the frontmatter', async (t) => {
  const text = [
    '---', // 1
    'title: Links', // 2
    '---', // 3
    'Plain [[Atlas migration]] and aliased [[People/Maya Chen|Maya]].', // 4
    '', // 5
    '## Section', // 6
    'Heading [[Atlas migration#Risks]], both [[Decisions/SQLite#Why not Postgres|why]].', // 7
    'Same note [[#Section]] and embed ![[diagram.png]] and ![[Weekly review#Goals]].', // 8
    '- in a list [[Daily/2026-11-16.md]]', // 9
    '> quoted [[Hiring sync]]', // 10
    '`[[not a link]]`', // 11
    '```', // 12
    '[[also not]]', // 13
    '```', // 14
    '| a | [[Table target\\|shown]] |', // 15
    '|---|---|', // 16
    '| b | c |', // 17
    '[[]] and [[ | x ]] are empty', // 18
  ].join('\n');
  t.same(parse(text).links, [
    { target: 'Atlas migration', embed: false, line: 4 },
    { target: 'People/Maya Chen', alias: 'Maya', embed: false, line: 4 },
    { target: 'Atlas migration', heading: 'Risks', embed: false, line: 7 },
    { target: 'Decisions/SQLite', heading: 'Why not Postgres', alias: 'why', embed: false, line: 7 },
    { target: '', heading: 'Section', embed: false, line: 8 },
    { target: 'diagram.png', embed: true, line: 8 },
    { target: 'Weekly review', heading: 'Goals', embed: true, line: 8 },
    { target: 'Daily/2026-11-16', embed: false, line: 9 },
    { target: 'Hiring sync', embed: false, line: 10 },
    { target: 'Table target', alias: 'shown', embed: false, line: 15 },
  ]);
});

t.test('a link in a heading and on a wrapped paragraph line has that line', async (t) => {
  const links = parse('# Notes on [[Atlas]]\n\nFirst line of a paragraph\nsecond line has [[Target]].\n').links;
  t.same(
    links.map((l) => [l.target, l.line]),
    [
      ['Atlas', 1],
      ['Target', 4],
    ],
  );
});
