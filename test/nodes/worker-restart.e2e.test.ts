// A crashed embedding worker fails the calls in flight (they never hang) and is started
// again for the next call. Runs the real worker with the bundled model. (A transformers.js
// model cannot come back this way: onnxruntime's native binding loads once per process, so
// that embedder reports the error instead of hanging.)
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { bundledModel } from '../helpers/real-model.js';

describe('the embedding worker', () => {
  it('fails pending calls when the worker dies, then restarts it', async () => {
    const embedder = bundledModel();
    try {
      expect((await embedder.embed(['before the crash'])).length).toBe(1);
      expect(embedder.runtime).toBe('onnxruntime');
      // The foreground model worker's thread (WorkerEmbedder → ModelWorker → Worker).
      const thread = () => (embedder as unknown as { foreground: { worker: { worker: Worker } } }).foreground.worker.worker;
      const worker = thread();
      const inFlight = embedder.embed(['a call in flight when the worker dies']);
      await worker.terminate();
      await expect(inFlight).rejects.toThrow(/embedding worker stopped/);
      const after = await embedder.embed(['after the restart']);
      expect(after[0].length).toBe(512);
      expect(embedder.state).toBe('ready');
      expect(thread()).not.toBe(worker);
      // onnxruntime cannot load again in this process: the new worker runs the same model on TF.js.
      expect(embedder.runtime).toBe('tfjs-wasm');
    } finally {
      await embedder.close();
    }
  });
});
