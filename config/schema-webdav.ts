// `webdav:` settings: the vault over WebDAV at /dav/ (off by default), reads and writes (each change committed as the WebDAV user), basic auth against scrypt
// password hashes (never plain text) made with `node -e` as the README shows.
import { z } from 'zod';

/** `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>`: what the README's one-liner prints. */
export const SCRYPT_HASH = /^scrypt\$(\d{1,7})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/=]{16,})\$([A-Za-z0-9+/=]{43,})$/;

export const webdavSchema = z
  .object({
    enabled: z.boolean().default(false),
    users: z
      .array(
        z
          .object({
            name: z.string().regex(/^[A-Za-z0-9_.@-]{1,64}$/, 'letters, digits, _ . @ - only (1-64)'),
            /** The commit author's email for this user's changes (default `<name>@webdav`). */
            email: z.string().min(3).max(200).optional(),
            password_hash: z
              .string()
              .regex(SCRYPT_HASH, 'must be an scrypt hash `scrypt$N$r$p$salt$hash` (README: WebDAV), never a plain password'),
          })
          .strict(),
      )
      .default([]),
    /** When set, every WebDAV change is committed as this author instead of the WebDAV user. */
    author: z
      .object({ name: z.string().min(1).max(200), email: z.string().min(3).max(200) })
      .strict()
      .optional(),
  })
  .strict()
  .refine((w) => !w.enabled || w.users.length > 0, { message: 'webdav.enabled needs at least one user in webdav.users', path: ['users'] });
