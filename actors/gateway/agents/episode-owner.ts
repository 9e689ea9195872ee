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
    for (const s of sessionSenders(reader, session)) if (s.id !== null) out.set(s.id, s.agent);
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

/**
 * The sender of each message of a session's indexed turns (a turn's own `agent` is only its last message's); a row
 * from before messages carried their sender stands for its whole turn with the turn's agent (`id` null).
 */
export function sessionSenders(reader: IndexReader, session: string): Array<{ id: string | null; agent: string }> {
  return reader
    .documentsWithPrefix('chat', `${session}:`)
    .filter((d) => d.metadata['session_id'] === session)
    .flatMap((d): Array<{ id: string | null; agent: string }> => {
      const turn = String(d.metadata['agent'] ?? '');
      const messages = (d.metadata['messages'] ?? []) as Array<{ id: string; agent?: string }>;
      return messages.length > 0 ? messages.map((m) => ({ id: m.id, agent: m.agent ?? turn })) : [{ id: null, agent: turn }];
    });
}
