// Worker-thread entry: runs the model off the event loop so the API stays responsive
// while a backlog is embedded. Protocol: init → ready|fatal; {id, texts} → {id, vectors}|{id, error}.
import { parentPort, workerData } from 'node:worker_threads';
import { loadModel, type ModelSpec } from './providers.js';

const port = parentPort!;
const spec = workerData as ModelSpec;

try {
  const model = await loadModel(spec, (line) => port.postMessage({ type: 'progress', line }));
  port.postMessage({ type: 'ready', modelId: model.modelId, dimension: model.dimension });
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
