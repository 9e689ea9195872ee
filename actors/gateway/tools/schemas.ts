// Tool arguments, validated with zod: a bad argument comes back as `bad_request` naming the argument and the rule.
import { z } from 'zod';
import { describeIssues, searchBody } from '../api-schema.js';

const str = (name: string) => z.string({ required_error: `${name} is required`, invalid_type_error: `${name} must be a string` });
const bool = (name: string) => z.boolean({ invalid_type_error: `${name} must be true or false` });

const notePath = str('path')
  .min(1, 'path must not be empty')
  .max(1024, 'path must be at most 1024 characters')
  .describe('Vault-relative path of a note, with ".md", e.g. "Projects/Atlas migration.md"');

export const vaultReadArgs = z.object({ path: notePath }).strict();

export const vaultWriteArgs = z
  .object({
    path: notePath,
    content: str('content').describe('The whole new content of the note (markdown, UTF-8); replaces what is there'),
    expected_mtime: z
      .number({ invalid_type_error: 'expected_mtime must be a number (the mtime_ms that vault_read returned)' })
      .nonnegative('expected_mtime must not be negative')
      .finite('expected_mtime must be finite')
      .optional()
      .describe('mtime_ms from vault_read: the write is refused with `conflict` if the note changed since'),
    expected_hash: str('expected_hash')
      .regex(/^[0-9a-fA-F]{64}$/, 'expected_hash must be the 64 hex digits of a sha256 (the content_hash that vault_read returned)')
      .optional()
      .describe('content_hash from vault_read: the write is refused with `conflict` if the note changed since'),
    reason: str('reason').max(500, 'reason must be at most 500 characters').optional().describe('Why: recorded in the commit message'),
    wait_indexed: bool('wait_indexed')
      .optional()
      .describe('Wait (up to a few seconds) until search sees the new content; the response says `indexed`'),
  })
  .strict();

export const vaultListArgs = z
  .object({
    folder: str('folder')
      .max(1024, 'folder must be at most 1024 characters')
      .optional()
      .describe('Vault-relative folder; default the vault root'),
    recursive: bool('recursive').optional().describe('Include notes in subfolders (default false)'),
  })
  .strict();

export const vaultLinkArgs = z.object({ path: notePath }).strict();

export const vaultUndoArgs = z
  .object({
    only_mine: bool('only_mine')
      .optional()
      .describe("Undo only this agent's most recent change (default true); false undoes the most recent change by anyone"),
    reason: str('reason').max(500, 'reason must be at most 500 characters').optional().describe('Why: recorded in the commit message'),
    wait_indexed: bool('wait_indexed').optional().describe('Wait until search sees the restored content'),
  })
  .strict();

/** The body of POST /v1/search, unchanged. */
export const memorySearchArgs = searchBody;

/** One line per problem, naming the argument: `k: k must be at least 1; (arguments): Unrecognized key(s) in object: 'x'`. */
export function describeArgIssues(err: z.ZodError): string {
  return describeIssues(err, '(arguments)');
}
