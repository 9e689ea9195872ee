// `supervision` in /v1/status and the status page's tree: main's answer to `main.supervision`, or why there is none
// (still starting, or main did not answer in time) as data, so the rest of the status still answers.
import { fail, type Failure } from '../../messages/common.js';
import type { SupervisionUnavailable, SupervisorNode } from '../../messages/supervision.js';

export type SupervisionStatus = SupervisorNode | SupervisionUnavailable | Failure<'unavailable'>;

export async function askSupervision(ask: () => Promise<SupervisorNode | SupervisionUnavailable>): Promise<SupervisionStatus> {
  try {
    return await ask();
  } catch (err) {
    return fail('unavailable', `main did not describe the supervision tree: ${(err as Error).message}`);
  }
}
