// The content hash every thread agrees on (contentHash fields, chunk hashes): the sha256 of the bytes, in hex.
import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
