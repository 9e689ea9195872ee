// The scheduler over HTTP (bearer token checked by the caller): GET /v1/jobs lists the jobs with their next and last
// run; POST /v1/jobs/<job>/run {date?, event?} runs one now and answers its outcome (written, skipped_idempotent,
// skipped, failed — all 200: a run that wrote nothing is an answer, not an HTTP error).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { isDate } from '../scheduler/dates.js';
import type { JobRunResult, JobsList, RunRefusal } from '../../messages/to-scheduler.js';
import { describeIssues } from './api-schema.js';
import { readJsonBody, sendJson } from './http-body.js';

export interface JobsBackend {
  list(): Promise<JobsList>;
  run(job: string, body: { date?: string; event?: string }): Promise<JobRunResult | RunRefusal>;
}

const runBody = z
  .object({
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
      // zod runs this even after the regex failed: only a YYYY-MM-DD string is judged (the regex said the rest)
      .refine((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d) || isDate(d), 'date must be a real day')
      .optional(),
    event: z.string().min(1).max(1_000).optional(),
  })
  .strict();

function fail(res: ServerResponse, status: number, reason: string, message: string, headers: Record<string, string> = {}): number {
  sendJson(res, status, { error: { reason, message } }, headers);
  return status;
}

/** Serves `/v1/jobs` and `/v1/jobs/<job>/run`; null when `pathname` is not one of them. */
export function routeJobs(
  jobs: JobsBackend | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<number> | null {
  if (pathname !== '/v1/jobs' && !pathname.startsWith('/v1/jobs/')) return null;
  return serve();

  async function serve(): Promise<number> {
    if (!jobs) return fail(res, 503, 'unavailable', 'the scheduler is not running: it runs with `memvault start` and writes enabled');
    if (pathname === '/v1/jobs') {
      if (req.method !== 'GET') return fail(res, 405, 'bad_request', 'GET /v1/jobs lists the jobs', { allow: 'GET' });
      const list = await answer(jobs.list());
      if (!list.ok) return fail(res, 503, 'unavailable', list.message, { 'retry-after': '5' });
      sendJson(res, 200, list.value);
      return 200;
    }
    const m = /^\/v1\/jobs\/([^/]+)\/run$/.exec(pathname);
    if (!m) return fail(res, 404, 'not_found', `no route ${req.method} ${pathname}; POST /v1/jobs/<job>/run runs a job`);
    if (req.method !== 'POST') return fail(res, 405, 'bad_request', `run a job with POST ${pathname}`, { allow: 'POST' });
    let job: string;
    try {
      job = decodeURIComponent(m[1]!);
    } catch {
      return fail(res, 404, 'not_found', `no job at ${pathname}`);
    }
    const read = await readJsonBody(req, 64 * 1024);
    if (!read.ok) return fail(res, read.error.reason === 'too_large' ? 413 : 400, read.error.reason, read.error.message);
    const body = runBody.safeParse(read.result.body ?? {});
    if (!body.success) return fail(res, 400, 'bad_request', describeIssues(body.error));
    const a = await answer(jobs.run(job, body.data));
    if (!a.ok) return fail(res, 503, 'unavailable', a.message, { 'retry-after': '5' });
    const r = a.value;
    if ('ok' in r && r.ok === false) return fail(res, r.reason === 'unknown_job' ? 404 : 400, r.reason, r.message);
    sendJson(res, 200, r);
    return 200;
  }
}

/** The scheduler restarting or gone: a 503 the client may retry, not a 500. */
async function answer<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  try {
    return { ok: true, value: await p };
  } catch (err) {
    return { ok: false, message: `the scheduler did not answer: ${(err as Error).message}` };
  }
}
