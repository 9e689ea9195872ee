// The `listen` setting split into host and port, apart from config/load.ts: the gateway thread needs only this, and
// importing the loader would load YAML and every zod schema of the config into its heap.

/** host and port from a validated `HOST:PORT` string. */
export function splitListen(listen: string): { host: string; port: number } {
  const i = listen.lastIndexOf(':');
  return { host: listen.slice(0, i).replace(/^\[|\]$/g, ''), port: Number(listen.slice(i + 1)) };
}
