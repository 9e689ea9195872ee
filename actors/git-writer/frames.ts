// Messages over a stream socket, each a 4-byte big-endian length and its v8-serialised body: how an actor thread
// talks to the daemon's spawner process (spawner.ts, spawner-process.ts), the same structured clone its IPC uses.
import type { Socket } from 'node:net';
import { deserialize, serialize } from 'node:v8';

export function writeFrame(s: Socket, msg: unknown): void {
  const body = serialize(msg);
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(body.length);
  s.cork();
  s.write(head);
  s.write(body);
  s.uncork();
}

/** Calls `onMessage` with each whole message as it arrives; a message split over reads is joined once (no re-copies). */
export function readFrames(s: Socket, onMessage: (msg: unknown) => void): void {
  let parts: Buffer[] = [];
  let have = 0;
  let need = 4; // the length header, then the header and its body
  s.on('data', (chunk: Buffer) => {
    parts.push(chunk);
    have += chunk.length;
    while (have >= need) {
      const buf = parts.length === 1 ? parts[0]! : Buffer.concat(parts, have);
      const size = buf.readUInt32BE(0);
      if (buf.length < 4 + size) {
        parts = [buf];
        need = 4 + size;
        break;
      }
      const msg = deserialize(buf.subarray(4, 4 + size));
      const rest = buf.subarray(4 + size);
      parts = rest.length > 0 ? [rest] : [];
      have = rest.length;
      need = 4;
      onMessage(msg);
    }
  });
}
