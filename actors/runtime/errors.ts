// Why an actor request failed, as a stable reason code the caller switches on.

export type ActorRequestFailure =
  | 'timeout' // no reply within timeoutMs (the message may still be handled later)
  | 'no_reply' // the handler finished without calling ctx.reply
  | 'poison' // the message crashed the worker too often and was dropped
  | 'mailbox_full' // refused at the door: the mailbox held maxMailbox messages
  | 'not_running' // out-of-band call with no live worker to answer it
  | 'undeliverable'; // the message could not be cloned to the worker thread

export class ActorRequestError extends Error {
  constructor(
    readonly reason: ActorRequestFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ActorRequestError';
  }
}
