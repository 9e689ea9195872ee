// commitment_log: `Commitments/YYYY-MM-DD.md`, keyed by the date — the explicit commitments ("I'll send the draft by
// Friday") the LLM finds in that day's meeting notes, daily note, changed notes and chat highlights, each with who,
// what and by when, linked to the person and the note it came from.
import { z } from 'zod';
import { ask } from '../ask.js';
import { DIGEST_FOLDERS, noteRef } from '../context.js';
import { dayRange } from '../dates.js';
import type { Draft } from '../writer.js';
import { personLink } from './meeting-note.js';
import { autonomyOf, runDate, type Skill, single } from './skill.js';

const Answer = z.object({
  commitments: z
    .array(
      z.object({
        who: z.string().min(1),
        what: z.string().min(1),
        by_when: z.string().nullable().default(null),
        to_whom: z.string().nullable().default(null),
        source: z.string().nullable().default(null),
      }),
    )
    .default([]),
});

export const commitmentLog: Skill = {
  name: 'commitment_log',
  llm: true,
  async run(env, req) {
    const date = runDate(env, req);
    const out = await env.writer.write({
      skill: 'commitment_log',
      template: 'commitment_log',
      path: `Commitments/${date}.md`,
      key: date,
      autonomy: autonomyOf(env.cfg, 'commitment_log'),
      draft: async (): Promise<Draft<'commitment_log'>> => {
        const [from, to] = dayRange(date, env.tz);
        const dated = [...env.ctx.notesDated('Meetings', date), ...env.ctx.notesDated('Daily', date)];
        const seen = new Set(dated.map((n) => n.path));
        const refs = [...dated, ...env.ctx.changedBetween(from, to, DIGEST_FOLDERS).filter((n) => !seen.has(n.path))];
        const chats = await env.ctx.episodes('chat', 'will promise send by tomorrow next week', from, to);
        const notes = [...(await env.ctx.excerpts(refs)), ...chats];
        if (notes.length === 0) return { ok: false, outcome: 'skipped', reason: `no_material: no notes or chats on ${date}` };
        const a = await ask(env.ask, 'commitment_log', { date, notes }, Answer);
        if (!a.ok) return a;
        const byPath = new Map(refs.map((r) => [r.path, r]));
        const commitments = a.value.commitments.map((c) => {
          const src = c.source ? byPath.get(c.source) : undefined;
          return { ...c, who_link: personLink(env.cfg.vault, c.who.replace(/[[\]|#^]/g, '').trim()), source_link: src ? src.link : null };
        });
        return {
          ok: true,
          vars: {
            key: date,
            skill: 'commitment_log',
            generated_at: new Date(env.now()).toISOString(),
            date,
            commitments,
            sources: refs.filter((r) => notes.some((n) => n.path === r.path)).map((r) => noteRef(r.path, r.title)),
          },
        };
      },
    });
    return single(out);
  },
};
