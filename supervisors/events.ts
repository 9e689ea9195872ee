// What a supervisor reports for logs and metrics: plain data with stable `supervisor.*` type names.
import type { WireError } from '../messages/common.js';

/** How a child went down: finished, crashed (with why), or killed at its shutdown deadline. */
export type ChildExit = { kind: 'normal' } | { kind: 'crash'; error: WireError } | { kind: 'killed' };

export type SupervisorEvent =
  | { type: 'supervisor.child_started'; supervisor: string; child: string; restarts: number }
  | { type: 'supervisor.child_exited'; supervisor: string; child: string; exit: ChildExit; expected: boolean }
  /** A restart was decided: `children` (in start order) come back after `delayMs`. */
  | { type: 'supervisor.restart_scheduled'; supervisor: string; cause: string; children: string[]; delayMs: number }
  | { type: 'supervisor.child_restarted'; supervisor: string; child: string; restarts: number; delayMs: number }
  | { type: 'supervisor.child_start_failed'; supervisor: string; child: string; error: WireError }
  /** `restarts` within the last `periodMs` (counting the one refused) exceeded the intensity. */
  | { type: 'supervisor.escalated'; supervisor: string; child: string; restarts: number; periodMs: number }
  | { type: 'supervisor.stopped'; supervisor: string; reason: string };
