// Task and correction episodes into documents. A task's content hash covers what it says (title, description,
// notes, status, domain, deadline), never its priority or times, so those change metadata without a model call.
import type { CorrectionEpisode, TaskEpisode } from '../../messages/episodes.js';
import type { TokenCounter } from '../../messages/embedding.js';
import { sha256Hex } from '../../messages/hash.js';
import { chunksOf } from './split.js';
import type { DraftDoc } from './work.js';

export function taskHash(t: TaskEpisode): string {
  return sha256Hex(JSON.stringify([t.title, t.description ?? '', t.notes ?? '', t.status, t.domain ?? '', t.deadline ?? '']));
}

export function taskText(t: TaskEpisode): string {
  const facts = [`Status: ${t.status}`];
  if (t.domain) facts.push(`Domain: ${t.domain}`);
  if (t.deadline) facts.push(`Deadline: ${t.deadline}`);
  const parts = [`Task: ${t.title}`, facts.join(' · ')];
  if (t.description) parts.push(t.description);
  if (t.notes) parts.push(`Notes: ${t.notes}`);
  return parts.join('\n');
}

export function taskDoc(t: TaskEpisode, atMs: number, rt: number, agent: string, tokens: TokenCounter, maxTokens: number): DraftDoc {
  return {
    sourceType: 'task',
    sourceId: t.task_id,
    uri: null,
    title: t.title,
    contentHash: taskHash(t),
    metadata: {
      task_id: t.task_id,
      status: t.status,
      ...(t.domain !== undefined ? { domain: t.domain } : {}),
      ...(t.deadline !== undefined ? { deadline: t.deadline } : {}),
      ...(t.priority !== undefined ? { priority: t.priority } : {}),
      at_ms: atMs,
      agent,
    },
    tags: [],
    atMs,
    chunks: chunksOf(taskText(t), tokens, maxTokens),
    receivedAt: rt,
  };
}

export function correctionText(c: CorrectionEpisode): string {
  const kind = c.task_type !== undefined ? ` (task_type=${c.task_type})` : '';
  return `Field ${c.field} changed from "${c.original}" to "${c.corrected}" on input: "${c.input}"${kind}`;
}

/** One chunk, whatever its length (the model reads its first window; keyword search all of it). */
export function correctionDoc(c: CorrectionEpisode, atMs: number, rt: number, agent: string, tokens: TokenCounter): DraftDoc {
  const text = correctionText(c);
  return {
    sourceType: 'correction',
    sourceId: c.correction_id,
    uri: null,
    title: `Correction of ${c.field}`,
    contentHash: sha256Hex(text),
    metadata: {
      correction_id: c.correction_id,
      field: c.field,
      ...(c.task_type !== undefined ? { task_type: c.task_type } : {}),
      at_ms: atMs,
      agent,
    },
    tags: [],
    atMs,
    chunks: [{ seq: 0, content: text, headingPath: [], startLine: 0, endLine: 0, tokenCount: tokens.count(text), hash: sha256Hex(text) }],
    receivedAt: rt,
  };
}
