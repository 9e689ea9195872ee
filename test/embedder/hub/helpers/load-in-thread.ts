// A worker thread that loads a hub model as a pool thread would, posting each HubEvent and then the outcome.
import { parentPort, workerData } from 'node:worker_threads';
import { ensureHubModel, type HubSpec } from '../../../../actors/embedder/providers/hub.js';

const spec = workerData as HubSpec;
ensureHubModel(spec, (e) => parentPort?.postMessage({ event: e })).then(
  (r) => parentPort?.postMessage({ done: { downloaded: r.downloaded, dir: r.dir } }),
  (err: Error & { code?: string }) => parentPort?.postMessage({ failed: { code: err.code, message: err.message } }),
);
