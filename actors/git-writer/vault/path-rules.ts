// Lexical checks on a note path sent by an agent: no disk access, so every rule here is about the string alone.
import path from 'node:path';
import { fail, type Failure, type Result } from '../../../messages/common.js';
import type { PathOptions, PathReason } from './types.js';

export const MAX_SEGMENT_BYTES = 255; // the common file-name limit (ext4, APFS, NTFS in UTF-16 is stricter still)
export const MAX_PATH_BYTES = 1024;

// Characters that render like `/`, `\` or `.` but are not them. NFKC maps only some of these to ASCII (U+2215
// and U+29F8 stay as they are), so the list is checked by itself, before any normalisation view.
const LOOK_ALIKES: ReadonlyMap<string, string> = new Map([
  ['\u2215', '/'],
  ['\u2044', '/'],
  ['\uff0f', '/'],
  ['\u29f8', '/'],
  ['\u2571', '/'],
  ['\u27cb', '/'],
  ['\u1735', '/'],
  ['\u3033', '/'],
  ['\u0338', '/'],
  ['\uff3c', '\\'],
  ['\u29f5', '\\'],
  ['\u2216', '\\'],
  ['\ufe68', '\\'],
  ['\u29f9', '\\'],
  ['\u2572', '\\'],
  ['\u27cd', '\\'],
  ['\uff0e', '.'],
  ['\u2024', '.'],
  ['\ufe52', '.'],
  ['\u2025', '..'],
  ['\u2026', '...'],
  ['\ufe30', '..'],
  ['\uff61', '.'],
  ['\u0701', '.'],
  ['\u0702', '.'],
  ['\ua4f8', '.'],
]);
// Bidi controls make a name display differently from what it is (`x\u202Edm.txt` shows as `xtxt.md`).
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
// Zero-width and other ignorable code points: HFS+ drops some of them, so `\u200c.git` there is `.git`.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;
const ENCODED_TRAVERSAL = /%(?:2e|2f|5c|00)/i; // `.` `/` `\` NUL, as a URL decoder further along would see them
const OVERLONG_UTF8 = /%c[01]|%e0%[89]|%f0%8/i; // invalid UTF-8 that lenient decoders turn into `.` or `/`
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\..*)?$/i;
const SHORT_NAME = /~\d+(?:\.|$)/; // 8.3 aliases: on Windows `GIT~1` is `.git`

function refuse(message: string): Failure<'path_escape'> {
  return fail('path_escape', message);
}

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function count(s: string, part: string): number {
  return s.split(part).length - 1;
}

/** Why `p` is not a plain relative path of plain names, or null when it is one. */
function structureProblem(p: string): string | null {
  if (p.startsWith('/')) return "absolute paths are not allowed; send a path relative to the vault root, e.g. 'Inbox/note.md'";
  if (/^[A-Za-z]:/.test(p)) return "drive letters ('C:') are not allowed; send a path relative to the vault root, e.g. 'Inbox/note.md'";
  if (p.includes('\\')) return "backslashes are not allowed; separate folders with '/'";
  if (p.includes(':')) return "':' is not allowed in note paths (on Windows it names a drive or an alternate data stream); use '-' instead";
  const segments = p.split('/');
  for (const [i, seg] of segments.entries()) {
    if (seg === '') {
      return i === segments.length - 1
        ? "path ends with '/'; name a note file inside the folder, e.g. 'Inbox/note.md'"
        : "empty folder names ('//') are not allowed; use a single '/' between folders";
    }
    if (seg === '..') return "path must stay inside the vault: '..' segments are not allowed";
    if (seg === '.') return "'.' segments are not allowed; send the path without './'";
    if (seg.startsWith('.')) {
      return `'${seg}' is hidden: agents may not read or write names starting with '.' (this keeps .git, .obsidian, .memvault and .trash out of reach); drop the leading '.'`;
    }
    if (/[ .]$/.test(seg))
      return `'${seg}' ends with a space or '.', which Windows drops, so it would alias another name; remove the trailing characters`;
    if (WINDOWS_DEVICE.test(seg))
      return `'${seg}' is a Windows device name (CON, NUL, COM1, …), which aliases a device; choose another name`;
    if (SHORT_NAME.test(seg))
      return `'${seg}' looks like a Windows 8.3 short name ('~1'), which can alias another file (GIT~1 is .git); drop the '~'`;
  }
  return null;
}

/**
 * Checks an agent-supplied note path without touching the disk.
 * @returns the NFC path and its segments, or a failure naming the rule that was broken.
 */
export function checkVaultPath(
  input: string,
  allowlist: readonly string[],
  opts: PathOptions = {},
): Result<{ rel: string; segments: string[] }, PathReason> {
  if (typeof input !== 'string' || input === '') return refuse("path is empty; send a vault-relative path such as 'Inbox/note.md'");
  const control = CONTROL.exec(input);
  if (control) {
    const what = control[0] === '\u0000' ? 'a NUL character' : `control character ${codePoint(control[0])}`;
    return refuse(`path holds ${what} at index ${control.index}; paths must be plain printable text`);
  }
  const lone = LONE_SURROGATE.exec(input);
  if (lone)
    return refuse(`path is not well-formed Unicode (lone surrogate ${codePoint(lone[0])} at index ${lone.index}); send valid UTF-16 text`);
  // Peel `%25` (an encoded `%`) so double-encoded `%252e` is caught like `%2e`.
  for (let s = input, prev = ''; s !== prev; prev = s, s = s.replace(/%25/gi, '%')) {
    if (ENCODED_TRAVERSAL.test(s) || OVERLONG_UTF8.test(s)) {
      return refuse("path holds a URL-encoded '.', '/', '\\' or NUL (such as '%2e' or '%2f'); send the path unencoded");
    }
  }
  const rel = input.normalize('NFC');
  const bidi = BIDI.exec(rel);
  if (bidi)
    return refuse(
      `path holds the bidirectional control ${codePoint(bidi[0])}, which makes a name display differently from what it is; remove it`,
    );
  for (const ch of rel) {
    const like = LOOK_ALIKES.get(ch);
    if (like !== undefined)
      return refuse(
        `path holds ${codePoint(ch)}, which looks like '${like}' but is not; use plain '/' between folders and plain '.' in names`,
      );
  }
  for (const view of [input, rel]) {
    const problem = structureProblem(view);
    if (problem !== null) return refuse(problem);
  }
  // What other layers (NFKC-folding search, HFS+, a person reading the name) would see must have the same shape.
  const nfkc = rel.normalize('NFKC');
  for (const view of new Set([nfkc, rel.replace(IGNORABLE, ''), nfkc.replace(IGNORABLE, '')])) {
    if (view === rel) continue;
    const problem = structureProblem(view);
    const reshaped = view.split('/').length !== rel.split('/').length || count(view, '..') > count(rel, '..');
    if (problem !== null || reshaped) {
      return refuse(
        `path reads as '${view}' once Unicode look-alikes and invisible characters are folded${problem === null ? ", which changes its '/' or '..' structure" : `: ${problem}`}; use plain ASCII '/' and '.'`,
      );
    }
  }
  const segments = rel.split('/');
  const longest = segments.find((s) => Buffer.byteLength(s, 'utf8') > MAX_SEGMENT_BYTES);
  if (longest !== undefined) {
    return fail(
      'too_large',
      `a name in the path is ${Buffer.byteLength(longest, 'utf8')} bytes in UTF-8, over the ${MAX_SEGMENT_BYTES}-byte limit of file systems; shorten it`,
    );
  }
  const bytes = Buffer.byteLength(rel, 'utf8');
  if (bytes > MAX_PATH_BYTES)
    return fail('too_large', `path is ${bytes} bytes in UTF-8, over the ${MAX_PATH_BYTES}-byte limit; use shorter folder and note names`);
  // The rules above should leave nothing for normalize() to change; if it would, the path is not canonical.
  if (path.posix.normalize(rel) !== rel)
    return refuse(`path is not in canonical form (it normalises to '${path.posix.normalize(rel)}'); send that form`);
  // the fact log is append-only and written by the memory tools alone, whatever the allowlist says
  if (opts.reserved?.(rel)) {
    if (opts.privileged) return { ok: true, rel, segments };
    return fail(
      'reserved',
      `'${rel}' is reserved: only memory_remember and memory_forget write the fact log (append-only; remember a new fact instead of editing one, or forget it), and only memvault's own jobs write Memory/log.md, MEMORY.md, USER.md and USER.md.audit.jsonl`,
    );
  }
  if (opts.privileged) return fail('reserved', `'${rel}' is not a fact log path; the memory tools write only there`);
  const name = segments[segments.length - 1]!;
  if (!/\.md$/i.test(name)) {
    return fail(
      'not_markdown',
      `'${name}' is not a markdown note: agents may only write files ending in '.md'; rename it to '${name.replace(/\.[^.]*$/, '')}.md'`,
    );
  }
  const top = segments[0]!;
  const allowed = allowlist.length > 0 ? allowlist.join(', ') : '(none configured)';
  if (segments.length < 2)
    return fail('outside_allowlist', `notes at the vault root are not writable; put it in an allowed folder: ${allowed}`);
  if (!allowlist.includes(top)) return fail('outside_allowlist', `top-level folder '${top}' is not writable; allowed: ${allowed}`);
  return { ok: true, rel, segments };
}
