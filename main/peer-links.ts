// The direct ports between actors that ask each other often (PEERS in supervisors/actors.ts): when either actor of a
// pair (re)starts, a new MessageChannel is made and each live worker is handed one end, with the request types it may
// ask and answer over it. The worker side is supervisors/runtime/peers.ts.
import { MessageChannel } from 'node:worker_threads';
import { ACTORS, PEERS, type RoutedActor } from '../supervisors/actors.js';
import type { ActorHandles } from '../supervisors/trees.js';

/** The request types `from` declared that go to `to` (named `<to>.…`). */
export function peerTypes(from: RoutedActor, to: RoutedActor): string[] {
  return Object.keys(ACTORS[from].requests).filter((t) => t.startsWith(`${to}.`));
}

/** Connects `started` (an actor just started, or restarted) to its peers that are running. */
export function connectPeers(handles: ActorHandles, started: string): void {
  for (const [a, b] of PEERS) {
    if (started !== a && started !== b) continue;
    const ha = handles[a];
    const hb = handles[b];
    if (!ha || !hb) continue;
    const { port1, port2 } = new MessageChannel();
    // one side not running (yet, or any more): closing the channel tells the other side, which then asks through main
    if (!ha.peer({ name: b, port: port1, asks: peerTypes(a, b), answers: peerTypes(b, a) })) {
      port1.close();
      continue;
    }
    if (!hb.peer({ name: a, port: port2, asks: peerTypes(b, a), answers: peerTypes(a, b) })) port2.close();
  }
}
