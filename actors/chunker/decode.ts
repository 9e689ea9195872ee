// Turns a file's bytes into note text, refusing (as data) what is too big, binary, or not UTF-8.
import { fail, type Result } from '../../messages/common.js';
import type { ParseFailureReason } from '../../messages/chunker.js';

const SNIFF_BYTES = 8192;
const MAX_CONTROL_SHARE = 0.1; // markdown never comes near this; images, archives and UTF-16 do

/** Decoded text with `\r\n` and lone `\r` turned into `\n` (markdown-it does the same, so line numbers agree). */
export function decodeNote(bytes: Uint8Array, maxBytes: number): Result<{ text: string }, ParseFailureReason> {
  if (bytes.length > maxBytes) {
    return fail(
      'too_large',
      `file is ${bytes.length} bytes, over the chunker's limit of ${maxBytes} (chunker.max_file_bytes); split the note or raise the limit`,
    );
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return fail('not_utf8', 'file starts with a UTF-16 byte-order mark; save it as UTF-8');
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0)
    return fail(
      'binary',
      `file holds a NUL byte at offset ${nul}, so it is not text; keep binary files out of the vault or in an ignored folder`,
    );
  const sniff = Math.min(bytes.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < sniff; i++) {
    const b = bytes[i]!;
    // Tab, LF, VT, FF, CR and ESC (ANSI colours in pasted logs) are text; other C0 controls and DEL are not.
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b) || b === 0x7f) control++;
  }
  if (sniff > 0 && control / sniff > MAX_CONTROL_SHARE) {
    return fail('binary', `${control} of the first ${sniff} bytes are control characters, so the file is not text`);
  }
  let text: string;
  try {
    // fatal: a stray Latin-1 byte must not become U+FFFD silently; the BOM, if any, is dropped.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail('not_utf8', `file is not valid UTF-8 (${describeFirstBadByte(bytes)}); re-save it as UTF-8`);
  }
  return { ok: true, text: text.replace(/\r\n?/g, '\n') };
}

/** Points at the first invalid sequence, so the user can find it; only called on failure, so the scan is fine. */
function describeFirstBadByte(bytes: Uint8Array): string {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    const ok = need >= 0 && Array.from({ length: need }, (_, k) => bytes[i + k + 1]).every((c) => c !== undefined && (c & 0xc0) === 0x80);
    if (!ok) return `bad byte 0x${b.toString(16)} at offset ${i}`;
    i += need + 1;
  }
  return 'an overlong or surrogate sequence';
}
