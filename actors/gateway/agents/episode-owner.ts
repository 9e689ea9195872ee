// Who recorded the episode an incoming one would replace or delete, read from the index: the episode route asks it
// before journaling an agent's items (kept apart from guard.ts, which the tool deps import, so the route has no cycle).
import type { Episode } from '../../../messages/episodes.js';
import type { IndexReader } from '../../store-writer/index-reader.js';

/**
 * A lookup of who recorded the episode an incoming one would replace or delete (the same task or chat message id),
 * from the index; null when none is indexed. A session's messages are read once per lookup, however many of its
 * messages a request holds.
 */
export function episodeOwners(reader: IndexReader): (ep: Episode) => string | null {
  const sessions = new Map<string, Map<string, string>>();
  const senders = (session: string): Map<string, string> => {
    let out = sessions.get(session);
    if (out) return out;
    out = new Map();
    for (const d of reader.documentsWithPrefix('chat', `${session}:`)) {
      if (d.metadata['session_id'] !== session) continue;
      const turn = String(d.metadata['agent'] ?? '');
      for (const m of (d.metadata['messages'] ?? []) as Array<{ id: string; agent?: string }>) out.set(m.id, m.agent ?? turn);
    }
    sessions.set(session, out);
    return out;
  };
  return (ep) => {
    if (ep.type === 'correction') return null; // the same correction_id again is a no-op: nothing of anyone's changes
    if (ep.type === 'task') {
      const a = reader.document('task', ep.task_id)?.metadata['agent'];
      return typeof a === 'string' ? a : null;
    }
    return senders(ep.session_id).get(ep.message_id) ?? null;
  };
}
