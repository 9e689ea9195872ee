// comlink ships its Node adapter as an ES module without a `.d.mts` beside it; this repeats its own typings
// (node_modules/comlink/dist/esm/node-adapter.d.ts).
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  export interface NodeEndpoint {
    postMessage(message: any, transfer?: any[]): void;
    on(type: string, listener: EventListenerOrEventListenerObject, options?: {}): void;
    off(type: string, listener: EventListenerOrEventListenerObject, options?: {}): void;
    start?: () => void;
  }
  export default function nodeEndpoint(nep: NodeEndpoint): Endpoint;
}
