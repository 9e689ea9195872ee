// The knowledge section of the configuration: which fact predicates hold one value at a time, which are temporary.
import { z } from 'zod';

const predicate = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'a predicate is snake_case: a-z, 0-9 and _, starting with a letter');

export const knowledgeSchema = z
  .object({
    // a new value of one of these supersedes the current one (memory_add_fact writes [until::] on the old line)
    single_valued: z.array(predicate).default(['works_at', 'lives_in', 'has_role', 'has_status']),
    // these never supersede anything, and their facts are listed beside the lasting ones
    temporary: z.array(predicate).default(['staying_in', 'visiting']),
    // the vault owner's note title: their facts open the context's known facts (default writes.person.name)
    owner: z.string().min(1).max(200).optional(),
    context: z
      .object({
        // days of the fact log (today included) put in the context as dated memories
        auto_load_days: z.number().int().min(0).max(60).default(3),
        // the context's size when a request names none
        max_chars: z.number().int().min(200).max(1_000_000).default(12_000),
        // search results put in the context as recalled memories
        recall_k: z.number().int().min(0).max(50).default(5),
      })
      .strict()
      .default({}),
  })
  .strict()
  .superRefine((k, ctx) => {
    const both = k.single_valued.filter((p) => k.temporary.includes(p));
    if (both.length > 0)
      ctx.addIssue({ code: 'custom', message: `${both.join(', ')} cannot be both single_valued and temporary`, path: ['temporary'] });
  });
