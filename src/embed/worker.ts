// Worker-thread entry: runs the model off the event loop so the API stays responsive
// while a backlog is embedded. Protocol: init → ready|fatal; {id, texts} → {id, vectors}|{id, error}.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { loadModel, type WorkerModelSpec } from './providers.js';

const port = parentPort!;
const spec = workerData as WorkerModelSpec & { nice: number };

// On Linux the nice value belongs to the thread: a background worker lowers its own so
// that requests and query embeddings get the CPU first. (Not raised again: that needs
// privileges.) Elsewhere it may apply to the whole process, so only Linux does it.
if (spec.nice > 0 && process.platform === 'linux') {
  try {
    setPriority(spec.nice);
  } catch {
    /* not permitted: runs at normal priority */
  }
}

try {
  const model = await loadModel(spec, (line) => port.postMessage({ type: 'progress', line }));
  port.postMessage({ type: 'ready', modelId: model.modelId, dimension: model.dimension, runtime: model.runtime });
  port.on('message', async (msg: { id: number; texts: string[] }) => {
    try {
      const vectors = await model.embed(msg.texts);
      port.postMessage({ type: 'result', id: msg.id, vectors }, vectors.map((v) => v.buffer as ArrayBuffer));
    } catch (err) {
      port.postMessage({ type: 'result', id: msg.id, error: err instanceof Error ? err.message : String(err) });
    }
  });
} catch (err) {
  port.postMessage({ type: 'fatal', error: err instanceof Error ? err.message : String(err) });
}
