// daily_reflection: `Reflections/YYYY-MM-DD.md` for a day, keyed by the date, drafted from that day's meeting notes,
// its daily note, the notes changed that day and — where episodic memory holds them — tasks that reached a terminal
// status and chat highlights. A day with none of these is skipped without an LLM call.
import { z } from 'zod';
import { ask } from '../ask.js';
import { DIGEST_FOLDERS } from '../context.js';
import { dayRange, weekdayName } from '../dates.js';
import type { Draft } from '../writer.js';
import { autonomyOf, runDate, type Skill, single } from './skill.js';

const Answer = z.object({
  summary: z.string().min(1),
  highlights: z.array(z.string()).default([]),
  open_loops: z.array(z.string()).default([]),
  tomorrow: z.array(z.string()).default([]),
});

export const dailyReflection: Skill = {
  name: 'daily_reflection',
  llm: true,
  async run(env, req) {
    const date = runDate(env, req);
    const out = await env.writer.write({
      skill: 'daily_reflection',
      template: 'daily_reflection',
      path: `Reflections/${date}.md`,
      key: date,
      autonomy: autonomyOf(env.cfg, 'daily_reflection'),
      draft: async (): Promise<Draft<'daily_reflection'>> => {
        const [from, to] = dayRange(date, env.tz);
        const meetings = env.ctx.notesDated('Meetings', date);
        const daily = env.ctx.notesDated('Daily', date);
        const seen = new Set([...meetings, ...daily].map((n) => n.path));
        const changed = [...daily, ...env.ctx.changedBetween(from, to, [...DIGEST_FOLDERS, 'Meetings/']).filter((n) => !seen.has(n.path))];
        const tasks = await env.ctx.episodes('task', 'done completed finished failed cancelled', from, to);
        const chats = await env.ctx.episodes('chat', 'decided agreed important remember', from, to);
        if (meetings.length + changed.length + tasks.length + chats.length === 0)
          return { ok: false, outcome: 'skipped', reason: `no_material: no meeting notes, changed notes, tasks or chats on ${date}` };
        const weekday = weekdayName(date);
        const a = await ask(
          env.ask,
          'daily_reflection',
          { date, weekday, meetings: await env.ctx.excerpts(meetings), changed: await env.ctx.excerpts(changed), tasks, chats },
          Answer,
        );
        if (!a.ok) return a;
        const episodes = [...tasks, ...chats].map((e) => ({ path: e.path, title: e.title, link: e.title }));
        return {
          ok: true,
          vars: {
            key: date,
            skill: 'daily_reflection',
            generated_at: new Date(env.now()).toISOString(),
            date,
            weekday,
            draft: a.value,
            meetings,
            changed,
            episodes,
          },
        };
      },
    });
    return single(out);
  },
};
