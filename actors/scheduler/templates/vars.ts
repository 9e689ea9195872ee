// What each template is rendered with: the variables of every note template (prompts/vault/*.liquid) and LLM prompt
// (prompts/llm/*.liquid), as types the skills must fill, and a sample of each that the start-up check and the tests
// render, so a template naming a variable that does not exist fails at start, not at 22:30.

export interface NoteRef {
  path: string;
  title: string;
  /** `[[path without .md|title]]`, ready to drop into a note. */
  link: string;
}

export interface Excerpt {
  path: string;
  title: string;
  text: string;
}

/** Every note template gets these. */
export interface NoteBase {
  key: string;
  skill: string;
  generated_at: string;
}

export interface Attendee {
  name: string;
  /** `[[People/Name]]` when that note exists, else `[[Name]]`. */
  link: string;
  email: string | null;
}

export interface MeetingEvent {
  uid: string;
  recurrence_id: string | null;
  summary: string;
  date: string;
  start: string;
  end: string;
  start_local: string;
  end_local: string;
  location: string | null;
  description: string | null;
  recurring: boolean;
}

export interface MeetingDraft {
  summary: string;
  context: string[];
  open_items: string[];
  follow_ups: string[];
}

export interface ReflectionDraft {
  summary: string;
  highlights: string[];
  open_loops: string[];
  tomorrow: string[];
}

export interface Commitment {
  who: string;
  what: string;
  by_when: string | null;
  to_whom: string | null;
  source: string | null;
}

export interface ReviewDraft {
  summary: string;
  wins: string[];
  challenges: string[];
  carry_over: string[];
  next_week: string[];
}

export interface ProfileDraft {
  summary: string;
  role: string | null;
  works_on: string[];
  recent: string[];
  open_commitments: string[];
}

export interface Week {
  label: string;
  start: string;
  end: string;
}

export interface VaultVars {
  meeting_note: NoteBase & { event: MeetingEvent; attendees: Attendee[]; draft: MeetingDraft; sources: NoteRef[] };
  daily_reflection: NoteBase & {
    date: string;
    weekday: string;
    draft: ReflectionDraft;
    meetings: NoteRef[];
    changed: NoteRef[];
    episodes: NoteRef[];
  };
  commitment_log: NoteBase & {
    date: string;
    commitments: Array<Commitment & { who_link: string; source_link: string | null }>;
    sources: NoteRef[];
  };
  weekly_review: NoteBase & { week: Week; previous: NoteRef | null; draft: ReviewDraft; sources: NoteRef[] };
  person_profile: NoteBase & { name: string; week: string; draft: ProfileDraft; mentions: NoteRef[] };
  person_stub: NoteBase & { name: string; source: NoteRef };
}

export interface LlmVars {
  system: { today: string; tz: string };
  meeting_note: { event: MeetingEvent; attendees: Attendee[]; related: Excerpt[]; previous: Excerpt[] };
  daily_reflection: { date: string; weekday: string; meetings: Excerpt[]; changed: Excerpt[]; tasks: Excerpt[]; chats: Excerpt[] };
  commitment_log: { date: string; notes: Excerpt[] };
  weekly_review: { week: Week; previous: Excerpt | null; notes: Excerpt[] };
  person_profile: { name: string; current: string | null; mentions: Excerpt[] };
  /** The nightly extraction (skills/sleep.ts): the material within its budget, and what is known already. */
  sleep: {
    since: string | null;
    items: Array<{ label: string; text: string }>;
    user_md: string | null;
    known_facts: string[];
    topics: string[];
    sentinel: string;
  };
  /** USER.md curation (actors/knowledge/curation-run.ts): the file as it is, and the fact log's last days. */
  curation: { user_md: string; days: number; material: Excerpt[] };
  /** The dream's run (actors/dream/run.ts renders it from its file; checked here with the rest at start). */
  dream: {
    today: string;
    batch: string;
    facts: Array<{ id: string; time: string; who: string; text: string }>;
    pages: string[];
    zones: string;
    conflicts_path: string;
  };
  /** MEMORY.md's regeneration after a dream run (actors/dream/memory-md.ts). */
  dream_memory_md: {
    today: string;
    pages: Array<{ path: string; title: string }>;
    recalled: Array<{ id: string; count: number; query: string }>;
    current: string;
    person_lines: string[];
    max_lines: number;
  };
}

export type VaultTemplate = keyof VaultVars;
export type LlmTemplate = keyof LlmVars;
export const VAULT_TEMPLATES = [
  'meeting_note',
  'daily_reflection',
  'commitment_log',
  'weekly_review',
  'person_profile',
  'person_stub',
] as const;
export const LLM_TEMPLATES = [
  'system',
  'meeting_note',
  'daily_reflection',
  'commitment_log',
  'weekly_review',
  'person_profile',
  'sleep',
  'curation',
  'dream',
  'dream_memory_md',
] as const;

/** The frontmatter `type` each note template must emit. */
export const NOTE_TYPE: Record<VaultTemplate, string> = {
  meeting_note: 'meeting',
  daily_reflection: 'reflection',
  commitment_log: 'commitments',
  weekly_review: 'review',
  person_profile: 'person',
  person_stub: 'person',
};

const base = (skill: string, key: string): NoteBase => ({ key, skill, generated_at: '2026-11-19T11:50:00.000Z' });
const ref = (path: string, title: string): NoteRef => ({ path, title, link: `[[${path.replace(/\.md$/, '')}|${title}]]` });
const ex = (path: string, title: string, text: string): Excerpt => ({ path, title, text });
const event: MeetingEvent = {
  uid: 'atlas-review-7f3c2a@ledgerline.example',
  recurrence_id: '2026-11-19T10:00:00.000Z',
  summary: 'Atlas migration review',
  date: '2026-11-19',
  start: '2026-11-19T10:00:00.000Z',
  end: '2026-11-19T10:45:00.000Z',
  start_local: '11:00',
  end_local: '11:45',
  location: 'Room Kepler / video',
  description: 'Weekly review of the Atlas migration.',
  recurring: true,
};
const attendees: Attendee[] = [
  { name: 'Maya Chen', link: '[[People/Maya Chen]]', email: 'maya@ledgerline.example' },
  { name: 'Sofia Marques', link: '[[Sofia Marques]]', email: null },
];
const week: Week = { label: '2026-W47', start: '2026-11-16', end: '2026-11-22' };

/** Sample variables for every template: what the start-up check and the template tests render. */
export const VAULT_SAMPLES: VaultVars = {
  meeting_note: {
    ...base('meeting_note', 'atlas-review-7f3c2a@ledgerline.example#2026-11-19T10:00:00.000Z'),
    event,
    attendees,
    draft: { summary: 'Cutover readiness.', context: ['Shadow reads ran eight days.'], open_items: ['Rehearse rollback'], follow_ups: [] },
    sources: [ref('Projects/Atlas migration.md', 'Atlas migration')],
  },
  daily_reflection: {
    ...base('daily_reflection', '2026-11-19'),
    date: '2026-11-19',
    weekday: 'Thursday',
    draft: { summary: 'A day of decisions.', highlights: ['Cutover date confirmed'], open_loops: [], tomorrow: ['Send the export'] },
    meetings: [ref('Meetings/2026-11-19 Atlas migration review.md', 'Atlas migration review')],
    changed: [ref('Daily/2026-11-19.md', 'Thursday 19 November')],
    episodes: [],
  },
  commitment_log: {
    ...base('commitment_log', '2026-11-19'),
    date: '2026-11-19',
    commitments: [
      {
        who: 'Tom Okafor',
        who_link: '[[Tom Okafor]]',
        what: 'announce the cutover in-app',
        by_when: '2026-11-28',
        to_whom: 'customers',
        source: 'Meetings/2026-11-19 Atlas migration review.md',
        source_link: '[[Meetings/2026-11-19 Atlas migration review|Atlas migration review]]',
      },
    ],
    sources: [ref('Meetings/2026-11-19 Atlas migration review.md', 'Atlas migration review')],
  },
  weekly_review: {
    ...base('weekly_review', '2026-W47'),
    week,
    previous: ref('Reviews/2026-W46.md', '2026-W46'),
    draft: {
      summary: 'Atlas on track.',
      wins: ['Cutover date set'],
      challenges: [],
      carry_over: ['Hire a second engineer'],
      next_week: [],
    },
    sources: [ref('Reflections/2026-11-19.md', '2026-11-19')],
  },
  person_profile: {
    ...base('person_profile', 'Sofia Marques@2026-W47'),
    name: 'Sofia Marques',
    week: '2026-W47',
    draft: { summary: 'Postgres consultant.', role: 'Consultant', works_on: ['Atlas migration'], recent: [], open_commitments: [] },
    mentions: [ref('Meetings/2026-11-19 Atlas migration review.md', 'Atlas migration review')],
  },
  person_stub: {
    ...base('person_stub', 'stub:Sofia Marques'),
    name: 'Sofia Marques',
    source: ref('Meetings/2026-11-19 Atlas migration review.md', 'Atlas migration review'),
  },
};

export const LLM_SAMPLES: LlmVars = {
  system: { today: '2026-11-19', tz: 'Europe/Berlin' },
  meeting_note: {
    event,
    attendees,
    related: [ex('Projects/Atlas migration.md', 'Atlas migration', 'Cutover on 5 December.')],
    previous: [],
  },
  daily_reflection: {
    date: '2026-11-19',
    weekday: 'Thursday',
    meetings: [ex('Meetings/2026-11-19 Atlas migration review.md', 'Atlas migration review', 'Cutover confirmed.')],
    changed: [],
    tasks: [],
    chats: [],
  },
  commitment_log: { date: '2026-11-19', notes: [ex('Daily/2026-11-19.md', 'Thursday', "I'll send the export by Friday.")] },
  weekly_review: { week, previous: null, notes: [ex('Reflections/2026-11-19.md', '2026-11-19', 'A day of decisions.')] },
  person_profile: { name: 'Sofia Marques', current: null, mentions: [ex('Meetings/x.md', 'x', 'Sofia joined the review.')] },
  sleep: {
    since: '2026-11-18 03:15',
    items: [{ label: 'Conversation s1 (2026-11-19 09:12 – 2026-11-19 09:40)', text: 'user: Maya moved to Lisbon.' }],
    user_md: '# About me\n\n## Work\n- Engineering lead at Ledgerline',
    known_facts: ['Maya Chen | works_at | [[Ledgerline]]'],
    topics: ['work', 'tech', 'personal', 'finance', 'admin', 'learning', 'meta'],
    sentinel: 'NO_NEW_MEMORIES',
  },
  curation: {
    user_md: '# About me\n\n## Preferences\n- Short answers.\n',
    days: 3,
    material: [ex('Memory/Log/2026-11-19.md', '2026-11-19', '- Prefers meetings after 11:00 [category:: personal]')],
  },
  dream: {
    today: '2026-11-20',
    batch: 'the log days 2026-11-18..2026-11-19',
    facts: [{ id: '2026-11-19#1a2b3c4d', time: '09:12', who: 'claude', text: 'Maya moved to Lisbon' }],
    pages: ['Memory/Wiki/Maya Chen.md'],
    zones: 'Memory/Wiki',
    conflicts_path: 'Inbox/Conflicts 2026-11-20.md',
  },
  dream_memory_md: {
    today: '2026-11-20',
    pages: [{ path: 'Memory/Wiki/Maya Chen.md', title: 'Maya Chen' }],
    recalled: [{ id: '2026-11-19#1a2b3c4d', count: 4, query: 'where does Maya live' }],
    current: '# MEMORY\n\n- [[Memory/Wiki/Maya Chen]]\n',
    person_lines: ['- Ask before booking travel'],
    max_lines: 200,
  },
};
