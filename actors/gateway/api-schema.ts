// HTTP request bodies, validated with zod: a bad argument gets 400 `bad_request` naming the field and the rule.
import { z } from 'zod';
import { SOURCE_TYPES } from '../../messages/episodes.js';

const since = z.union([z.number().int().nonnegative(), z.string().datetime({ offset: true }), z.string().date()]);

export const searchBody = z
  .object({
    query: z.string().trim().min(1, 'query must be a non-empty string').max(4000, 'query must be at most 4000 characters'),
    k: z.number().int('k must be an integer').min(1, 'k must be at least 1').optional(),
    mode: z.enum(['hybrid', 'bm25', 'vector']).optional(),
    group: z.enum(['note', 'chunk']).optional(),
    filters: z
      .object({
        path_prefix: z.string().max(1000).optional(),
        folder: z.string().max(1000).optional(),
        source_type: z
          .enum(SOURCE_TYPES, { errorMap: () => ({ message: `source_type must be one of ${SOURCE_TYPES.join(', ')}` }) })
          .optional(),
        since: since.optional(),
        tags: z.array(z.string().min(1).max(200)).max(50).optional(),
        include_sensitive: z.boolean().optional(),
        /** Facts the dream consolidated into a wiki page are hidden unless this is true (actors/dream/coverage.ts). */
        include_consolidated: z.boolean().optional(),
      })
      .strict()
      // the same filter under two names: both at once would silently drop one
      .refine((f) => f.path_prefix === undefined || f.folder === undefined, 'give path_prefix or folder (the same filter), not both')
      .optional(),
  })
  .strict();
export type SearchBody = z.infer<typeof searchBody>;

export function sinceMs(v: number | string | undefined): number | undefined {
  if (v === undefined) return undefined;
  return typeof v === 'number' ? v : Date.parse(v);
}

/** Joins zod issues into one line per problem, naming the field: `filters.k: k must be at least 1`; `whole` names the top level. */
export function describeIssues(err: z.ZodError, whole = '(body)'): string {
  return err.issues.map((i) => `${i.path.join('.') || whole}: ${i.message}`).join('; ');
}
