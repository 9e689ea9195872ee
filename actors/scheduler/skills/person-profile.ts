// person_profile: profiles for People notes, on two triggers — a person linked from at least mention_threshold notes
// changed within lookback_days (counted from the links the index stores), and People notes with less than
// min_body_chars of body (stubs to fill). Overwrite guard: only a note that is empty or carries
// `autowritten_by: memvault` is written; a person's own profile is never touched, and costs no LLM call. Keyed
// `{name}@{iso_week}`: at most one rewrite per person per week. At most max_per_run profiles a run.
import path from 'node:path';
import { z } from 'zod';
import { SOURCE_VAULT } from '../../../messages/common.js';
import { graphNotes, LinkGraph } from '../../gateway/tools/link-graph.js';
import { ask } from '../ask.js';
import { noteRef } from '../context.js';
import { isoWeek, localDate } from '../dates.js';
import { type Draft, readNote, type WriteOutcome } from '../writer.js';
import { autonomyOf, combine, type Skill, type SkillEnv } from './skill.js';

const Answer = z.object({
  summary: z.string().min(1),
  role: z.string().nullable().default(null),
  works_on: z.array(z.string()).default([]),
  recent: z.array(z.string()).default([]),
  open_commitments: z.array(z.string()).default([]),
});

export interface Candidate {
  path: string;
  name: string;
  /** Notes changed within lookback_days that link to it. */
  mentions: string[];
  why: 'mentions' | 'stub';
}

/** People notes that qualify, most mentioned first: by mentions, or as stubs with too little body. */
export async function candidates(env: SkillEnv): Promise<{ list: Candidate[]; graph: LinkGraph }> {
  const c = env.cfg.skills.person_profile;
  const since = env.now() - c.lookback_days * 86_400_000;
  const notes = graphNotes(env.ctx.view);
  const graph = new LinkGraph(notes);
  const stats = env.ctx.view.reader.documentStats(SOURCE_VAULT);
  const mentions = new Map<string, Set<string>>();
  for (const n of notes) {
    if ((stats.get(n.path)?.mtimeMs ?? 0) < since || n.sensitive) continue;
    for (const l of n.links) {
      const r = graph.resolve(l.target);
      if (!r.ok || !r.path.startsWith('People/') || r.path === n.path) continue;
      const set = mentions.get(r.path) ?? new Set<string>();
      set.add(n.path);
      mentions.set(r.path, set);
    }
  }
  const list: Candidate[] = [];
  for (const n of notes) {
    if (!n.path.startsWith('People/') || n.sensitive) continue;
    const m = [...(mentions.get(n.path) ?? [])].sort();
    const name = path.posix.basename(n.path, '.md');
    if (m.length >= c.mention_threshold) list.push({ path: n.path, name, mentions: m, why: 'mentions' });
    else {
      const body = (await readNote(env.cfg.vault, n.path)).body.trim();
      if (body.length < c.min_body_chars) list.push({ path: n.path, name, mentions: m, why: 'stub' });
    }
  }
  return { list: list.sort((a, b) => b.mentions.length - a.mentions.length || a.path.localeCompare(b.path)), graph };
}

async function profile(env: SkillEnv, cand: Candidate, week: string): Promise<WriteOutcome> {
  const key = `${cand.name}@${week}`;
  return env.writer.write({
    skill: 'person_profile',
    template: 'person_profile',
    path: cand.path,
    key,
    autonomy: autonomyOf(env.cfg, 'person_profile'),
    draft: async (current): Promise<Draft<'person_profile'>> => {
      const r = env.ctx.view.reader;
      const refs = cand.mentions.map((p) => noteRef(p, r.document(SOURCE_VAULT, p)?.title ?? p));
      const searched = await env.ctx.search(`"${cand.name}"`, 6, [cand.path, ...cand.mentions]);
      const mentions = [...(await env.ctx.excerpts(refs.slice(0, 8), 12_000)), ...searched];
      if (mentions.length === 0) return { ok: false, outcome: 'skipped', reason: `no_material: no note says anything about ${cand.name}` };
      const now = current.body.trim();
      const a = await ask(env.ask, 'person_profile', { name: cand.name, current: now ? now.slice(0, 3_000) : null, mentions }, Answer);
      if (!a.ok) return a;
      return {
        ok: true,
        vars: {
          key,
          skill: 'person_profile',
          generated_at: new Date(env.now()).toISOString(),
          name: cand.name,
          week,
          draft: a.value,
          mentions: [...refs, ...searched.map((s) => noteRef(s.path, s.title))],
        },
      };
    },
  });
}

export const personProfile: Skill = {
  name: 'person_profile',
  llm: true,
  async run(env, req) {
    const week = isoWeek(req.date ?? localDate(req.slot ?? env.now(), env.tz)).label;
    const { list } = await candidates(env);
    const chosen = req.event ? list.filter((c) => c.name === req.event || c.path === req.event) : list;
    const outcomes: WriteOutcome[] = [];
    let drafted = 0;
    for (const cand of chosen) {
      if (drafted >= env.cfg.skills.person_profile.max_per_run) break;
      const o = await profile(env, cand, week);
      outcomes.push(o);
      // only profiles that reached the model count against max_per_run; guarded and idempotent ones cost nothing
      if (o.outcome === 'written' || o.outcome === 'failed') drafted++;
    }
    return combine(outcomes, 'no_candidates: no People note is mentioned often enough or is a stub to fill');
  },
};
