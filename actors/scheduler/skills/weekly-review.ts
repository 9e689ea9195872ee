// weekly_review: `Reviews/YYYY-Www.md` (ISO week), keyed by the week label, drafted from the week's reflections,
// commitment logs, meeting notes, daily notes and changed notes, with the previous week's review loaded so what it
// left open is carried over.
import { z } from 'zod';
import { ask } from '../ask.js';
import { noteRef } from '../context.js';
import { addDays, dayRange, isoWeek } from '../dates.js';
import { readNote, targetPath, type Draft } from '../writer.js';
import { autonomyOf, runDate, type Skill, single } from './skill.js';

const Answer = z.object({
  summary: z.string().min(1),
  wins: z.array(z.string()).default([]),
  challenges: z.array(z.string()).default([]),
  carry_over: z.array(z.string()).default([]),
  next_week: z.array(z.string()).default([]),
});

export const weeklyReview: Skill = {
  name: 'weekly_review',
  llm: true,
  async run(env, req) {
    const week = isoWeek(runDate(env, req));
    const autonomy = autonomyOf(env.cfg, 'weekly_review');
    const out = await env.writer.write({
      skill: 'weekly_review',
      template: 'weekly_review',
      path: `Reviews/${week.label}.md`,
      key: week.label,
      autonomy,
      draft: async (): Promise<Draft<'weekly_review'>> => {
        const days = Array.from({ length: 7 }, (_, i) => addDays(week.start, i));
        const dated = days.flatMap((d) => ['Reflections', 'Commitments', 'Meetings', 'Daily'].flatMap((f) => env.ctx.notesDated(f, d)));
        const seen = new Set(dated.map((n) => n.path));
        const [from] = dayRange(week.start, env.tz);
        const [, to] = dayRange(week.end, env.tz);
        const changed = env.ctx.changedBetween(from, to).filter((n) => !seen.has(n.path) && !n.path.startsWith('Meetings/'));
        const refs = [...dated, ...changed];
        // last week's review, where this skill would have put it (Inbox/ at low autonomy)
        const prevLabel = isoWeek(addDays(week.start, -7)).label;
        const prevPath = targetPath(`Reviews/${prevLabel}.md`, autonomy);
        const prevNote = await readNote(env.cfg.vault, prevPath);
        const previous = prevNote.exists ? noteRef(prevPath, prevLabel) : null;
        if (refs.length === 0 && !previous)
          return { ok: false, outcome: 'skipped', reason: `no_material: nothing recorded in ${week.label} and no review of ${prevLabel}` };
        const a = await ask(
          env.ask,
          'weekly_review',
          { week, previous: previous ? await env.ctx.excerpt(previous, 4_000) : null, notes: await env.ctx.excerpts(refs, 14_000) },
          Answer,
        );
        if (!a.ok) return a;
        return {
          ok: true,
          vars: {
            key: week.label,
            skill: 'weekly_review',
            generated_at: new Date(env.now()).toISOString(),
            week,
            previous,
            draft: a.value,
            sources: refs,
          },
        };
      },
    });
    return single(out);
  },
};
