// Shared by the hub tests: a spec for a repository on a FakeHub, and events collected by type.
import path from 'node:path';
import type { HubEvent, HubSpec } from '../../../../actors/embedder/providers/hub.js';

export function specFor(hubUrl: string, modelsDir: string, repo: string, over: Partial<HubSpec> = {}): HubSpec {
  return { repo, revision: 'main', file: null, sha256: {}, modelSha256: null, hubUrl, modelsDir: path.resolve(modelsDir), ...over };
}

export function collect(): {
  events: HubEvent[];
  on: (e: HubEvent) => void;
  of<T extends HubEvent['type']>(t: T): Array<Extract<HubEvent, { type: T }>>;
} {
  const events: HubEvent[] = [];
  return {
    events,
    on: (e) => events.push(e),
    of: <T extends HubEvent['type']>(t: T) => events.filter((e): e is Extract<HubEvent, { type: T }> => e.type === t),
  };
}
