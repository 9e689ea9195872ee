// The git writer's two kinds of section: serial (one git operation at a time — the quiet-period timer and the
// message handlers share the repository) and shared (agent writes of different notes changing their files at once).
/** One git operation at a time: the quiet-period timer and message handlers share the repository. */
let chain: Promise<unknown> = Promise.resolve();
/** Agent writes' file phases under way (see shared): a serial section waits for them. */
const sharedRunning = new Set<Promise<unknown>>();
export function serial<T>(fn: () => Promise<T>): Promise<T> {
  const before = [...sharedRunning];
  const next = chain.then(() => Promise.allSettled(before)).then(fn);
  chain = next.catch(() => {});
  return next;
}
/**
 * Agent writes of different notes change their files at once (their journal fsyncs are then shared, see
 * IntentJournal#flush): after every serial section asked before, and before any asked after.
 */
export function shared<T>(fn: () => Promise<T>): Promise<T> {
  const p = chain.then(fn, fn);
  const settled = p.catch(() => {});
  sharedRunning.add(settled);
  void settled.then(() => sharedRunning.delete(settled));
  return p;
}
