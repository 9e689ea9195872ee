// Why an actor request failed, as a stable reason code the caller switches on.

export type ActorRequestFailure =
  | 'timeout' // no reply within timeoutMs (the message may still be handled later)
  | 'no_reply' // the handler finished without calling ctx.reply
  | 'poison' // the message crashed the worker too often and was dropped
  | 'mailbox_full' // refused at the door: the mailbox held maxMailbox messages
  | 'not_running' // out-of-band call with no live worker to answer it, or a request to an actor that is not running
  | 'undeclared' // a request the asking actor did not declare in supervisors/actors.ts (a bug)
  | 'undeliverable'; // the message could not be cloned to the worker thread

/** The plain-data form of a failed request, for the way back to the asking thread. */
export function requestFailure(err: unknown): { kind: string; message: string } {
  if (err instanceof ActorRequestError) return { kind: err.reason, message: err.message };
  return { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
}

export class ActorRequestError extends Error {
  constructor(
    readonly reason: ActorRequestFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ActorRequestError';
  }
}
