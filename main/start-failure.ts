// Why a daemon could not start, as data: the actor whose start failed and its stable reason code (EADDRINUSE when the
// gateway's address is taken), so `memvault start` can say it in one line instead of a supervisor's stack trace.
export class DaemonStartFailure extends Error {
  constructor(
    /** The actor (or nested supervisor) that failed to start, e.g. `gateway`. */
    readonly child: string,
    /** The failure's code as the actor reported it: an errno name (`EADDRINUSE`, `EACCES`) or an actor's own reason. */
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'DaemonStartFailure';
  }
}
