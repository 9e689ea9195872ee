// A real daemon on a copy of the example vault with its LLM pointed at a chat-completions server on loopback (the
// fake answers each skill's prompt with a plausible JSON draft), every skill off the clock so only the test's runs
// happen; helpers to run a job over HTTP and read notes and commits back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { git, makeVault, type Running, startDaemon, testConfig, type TestVault } from '../../helpers/daemon.js';
import { FakeLlm, promptText, type Recorded, type Scripted } from '../../helpers/fake-llm.js';

/** A draft for whichever skill's prompt this is (recognised by its wording), or undefined. */
export function skillAnswer(r: Recorded): Scripted | undefined {
  const p = promptText(r);
  const json = (o: unknown): Scripted => ({ content: JSON.stringify(o), usage: { prompt_tokens: 900, completion_tokens: 150 } });
  if (p.includes('Write the evening reflection'))
    return json({
      summary: 'Cutover for the [[Atlas migration]] was confirmed for 5 December; a strong interview with Jonas B.',
      highlights: ['Cutover date confirmed in [[2026-11-19 Atlas migration review]]'],
      open_loops: ['Rehearse the rollback with Tom driving'],
      tomorrow: ['Send the corrected October export files'],
    });
  if (p.includes('Find the explicit commitments'))
    return json({
      commitments: [
        {
          who: 'Tom Okafor',
          what: 'announce the cutover in-app',
          by_when: '2026-11-28',
          to_whom: 'customers',
          source: 'Meetings/2026-11-19 Atlas migration review.md',
        },
        {
          who: 'Lena Fischer',
          what: 'send the corrected October files',
          by_when: '2026-11-20',
          to_whom: null,
          source: 'Daily/2026-11-19.md',
        },
      ],
    });
  if (p.includes('A meeting has just ended'))
    return json({
      summary: 'The weekly review of the [[Atlas migration]].',
      context: ['Shadow reads ran eight days with two mismatches.'],
      open_items: ['Rehearse the reverse change stream again'],
      follow_ups: ['Confirm the fallback date with [[Sofia Marques]]'],
    });
  if (p.includes('Write the review of week'))
    return json({
      summary: 'Atlas moved to a firm cutover date.',
      wins: ['Cutover confirmed'],
      challenges: ['Only one person knows the change stream'],
      carry_over: ['Pair Maya and Tom on the change stream'],
      next_week: ['Rollback rehearsal'],
    });
  if (p.includes('Write a short profile of'))
    return json({
      summary: 'A colleague who appears in the Atlas reviews.',
      role: null,
      works_on: ['[[Atlas migration]]'],
      recent: ['2026-11-19: at the Atlas review'],
      open_commitments: [],
    });
  return undefined;
}

export interface SkillDaemon {
  llm: FakeLlm;
  v: TestVault;
  d: Running;
  run(job: string, body?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  note(rel: string): string | null;
  /** Trailers of the last commit touching `rel`. */
  trailers(rel: string): Record<string, string>;
}

const SKILLS = ['meeting_note', 'daily_reflection', 'commitment_log', 'weekly_review', 'person_profile', 'sleep', 'person_stubs'];

/**
 * Settings: every skill off the clock (manual runs still work) unless `skills` gives its settings (a YAML flow
 * mapping), the LLM at the fake, then `extra` (more top-level sections).
 */
export function skillYaml(llmUrl: string | null, skills: Record<string, string> = {}, extra = ''): string {
  return [
    'writes:\n  human_quiet_ms: 200\n',
    llmUrl ? `llm:\n  base_url: ${llmUrl}\n  models: { default: llama3.1:8b }\n  max_retries: 1\n  timeout_s: 5\n` : '',
    'scheduler:\n  tz: Europe/Berlin\n',
    'skills:\n',
    ...SKILLS.map((n) => `  ${n}: ${skills[n] ?? (n === 'person_stubs' ? '{}' : '{ enabled: false }')}\n`),
    extra,
  ].join('');
}

export async function skillDaemon(
  t: { teardown(fn: () => unknown): void },
  opts: {
    skills?: Record<string, string>;
    extra?: string;
    llm?: boolean;
    files?: Record<string, string>;
    /** Runs on the vault folder before the daemon starts (e.g. to age a note's mtime). */
    prepare?: (dir: string) => void;
  } = {},
): Promise<SkillDaemon> {
  const llm = await FakeLlm.start();
  t.teardown(() => llm.close());
  llm.respond(skillAnswer);
  const v = makeVault(opts.files ?? {}, { copyExample: true });
  t.teardown(() => v.cleanup());
  opts.prepare?.(v.dir);
  const d = await startDaemon(testConfig(v.dir, skillYaml(opts.llm === false ? null : llm.url, opts.skills, opts.extra)));
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  return {
    llm,
    v,
    d,
    run: (job, body = {}) => d.api('POST', `/v1/jobs/${job}/run`, body),
    note(rel) {
      try {
        return readFileSync(path.join(v.dir, rel), 'utf8');
      } catch {
        return null;
      }
    },
    trailers(rel) {
      const out: Record<string, string> = {};
      const text = git(v.dir, 'log', '-1', '--format=%(trailers:only,unfold)', '--', rel);
      for (const line of text.split('\n')) {
        const m = /^([A-Za-z-]+): (.*)$/.exec(line);
        if (m) out[m[1]!] = m[2]!;
      }
      return out;
    },
  };
}
