// The WebDAV writer's parts from config: locks and dead properties (kept on disk under the data dir when it is given),
// and commits through the git writer's
// `git.commit_person` request, authored by the WebDAV user (name, and email from webdav.users) or webdav.author.
import type { FileConfig } from '../../../config/schema.js';
import type { GitMsg, PersonCommitResult } from '../../../messages/to-git.js';
import { DavLocks } from './dav-locks.js';
import { DavProps } from './dav-props.js';
import { davStateFiles, LOCKS_FILE, persisted, PROPS_FILE } from './dav-state.js';
import type { DavWriter } from './dav-write.js';

type CommitPerson = Extract<GitMsg, { type: 'git.commit_person' }>;

export function davWriter(
  cfg: Pick<FileConfig, 'webdav'> & { vault: string; data_dir?: string },
  request: (m: CommitPerson) => Promise<PersonCommitResult>,
  report: (problem: 'damaged' | 'unsaved', file: string, why: string) => void = () => {},
): DavWriter {
  const emails = new Map(cfg.webdav.users.map((u) => [u.name, u.email ?? `${u.name}@webdav`]));
  const files = cfg.data_dir ? davStateFiles(cfg.data_dir) : null;
  return {
    vault: cfg.vault,
    locks: new DavLocks(Date.now, files ? persisted(files.locks, LOCKS_FILE, [], report) : undefined),
    props: new DavProps(files ? persisted(files.props, PROPS_FILE, [], report) : undefined),
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
