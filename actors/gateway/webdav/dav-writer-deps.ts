// The WebDAV writer's parts from config: in-memory locks and dead properties, and commits through the git writer's
// `git.commit_person` request, authored by the WebDAV user (name, and email from webdav.users) or webdav.author.
import type { FileConfig } from '../../../config/schema.js';
import type { GitMsg, PersonCommitResult } from '../../../messages/to-git.js';
import { DavLocks } from './dav-locks.js';
import { DavProps } from './dav-props.js';
import type { DavWriter } from './dav-write.js';

type CommitPerson = Extract<GitMsg, { type: 'git.commit_person' }>;

export function davWriter(
  cfg: Pick<FileConfig, 'webdav'> & { vault: string },
  request: (m: CommitPerson) => Promise<PersonCommitResult>,
): DavWriter {
  const emails = new Map(cfg.webdav.users.map((u) => [u.name, u.email ?? `${u.name}@webdav`]));
  return {
    vault: cfg.vault,
    locks: new DavLocks(),
    props: new DavProps(),
    commitPending: async (paths) => {
      try {
        await request({ type: 'git.commit_person', paths, author: { name: 'webdav', email: 'webdav@localhost' }, before: true });
      } catch {
        // the write goes on; the person's edit stays pending and is committed after the quiet period
      }
    },
    commit: async (paths, user) => {
      const author = cfg.webdav.author ?? { name: user, email: emails.get(user) ?? `${user}@webdav` };
      try {
        return await request({ type: 'git.commit_person', paths, author });
      } catch (err) {
        return { ok: false, reason: 'unavailable', message: String(err) };
      }
    },
  };
}
