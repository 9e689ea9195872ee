// The `llm:` settings: one OpenAI-compatible chat-completions endpoint, model aliases, which task uses which alias,
// time limits, retries and prices. Absent: every LLM-driven job idles and says why; the rest of the daemon runs.
import { z } from 'zod';

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable, e.g. OPENAI_API_KEY');
const price = z
  .object({
    in_per_mtok: z.number().min(0, 'in_per_mtok must not be negative'),
    out_per_mtok: z.number().min(0, 'out_per_mtok must not be negative'),
  })
  .strict();

export const llmSchema = z
  .object({
    /** e.g. http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8080/v1 (llama.cpp server), https://api.openai.com/v1 */
    base_url: z
      .string()
      .url('must be an absolute URL such as http://127.0.0.1:11434/v1')
      .refine((u) => /^https?:\/\//i.test(u), 'must use http or https'),
    api_key_env: envName.optional(),
    /** Aliases to model names as the server knows them; `default` is used by every task without a route. */
    models: z.object({ default: z.string().min(1, 'models.default must name a model') }).catchall(z.string().min(1)),
    /** task type (a skill's name, later `dream`, `extract`) → alias in `models` */
    routes: z.record(z.string().min(1)).default({}),
    timeout_s: z.number().positive().max(3_600).default(60),
    max_retries: z.number().int().min(0).max(10).default(3),
    /** USD per million tokens, by model name (not alias); a model without a price costs 0 (local models). */
    prices: z.record(price).default({}),
  })
  .strict()
  .superRefine((l, ctx) => {
    for (const [task, alias] of Object.entries(l.routes))
      if (!Object.hasOwn(l.models, alias))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['routes', task],
          message: `routes.${task} names the alias "${alias}", which is not in llm.models (${Object.keys(l.models).join(', ')})`,
        });
  });

export type LlmConfig = z.infer<typeof llmSchema>;
