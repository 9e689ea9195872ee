// Reads a JSON request body with a size cap, refusing as data (too_large, bad_request) rather than throwing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toolFail, type ToolOutcome } from './tools/types.js';

export async function readJsonBody(req: IncomingMessage, max: number): Promise<ToolOutcome<{ body: unknown }>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > max) {
      req.resume(); // drain the rest so the client sees our answer rather than a reset
      return toolFail('too_large', `request body is over ${max} bytes`);
    }
    chunks.push(c);
  }
  let text: string;
  try {
    // JSON is UTF-8 (RFC 8259): a lenient decode would turn stray bytes into U+FFFD and write that into a note
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return toolFail('bad_request', 'the body is not valid UTF-8; send JSON encoded as UTF-8');
  }
  if (text.trim() === '') return { ok: true, result: { body: undefined } };
  try {
    return { ok: true, result: { body: JSON.parse(text) as unknown } };
  } catch {
    return toolFail('bad_request', 'the body must be JSON');
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}
