// The server's model worker, started before anything else: the CLI starts it before it
// loads the server's modules, so the model loads on the second core while this thread
// loads the code (cold start, issue 17).
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { defaultWorkers, WorkerEmbedder } from './worker-embedder.js';

export function startServerEmbedder(config: Config, log: Logger): WorkerEmbedder {
  const embedder = new WorkerEmbedder(
    { model: config.embedModel, cacheDir: config.dataDir, runtime: config.tuning?.useLiteRuntime },
    { workers: config.tuning?.embedWorkers ?? defaultWorkers(config.embedModel), scheduling: config.tuning?.embedScheduling, onProgress: (line) => log.info(line) },
  );
  return embedder;
}

/**
 * Says when the model is ready (or failed). Called once the server is sure to run: a start
 * refused for an unreachable database stays one line, however fast the model loaded.
 */
export function logModelState(embedder: WorkerEmbedder, log: Logger): void {
  embedder.ready.then(
    () => log.info(`embedding model ready: ${embedder.modelId} (${embedder.dimension}-d, ${embedder.runtime})`),
    (e) => log.error('embedding model failed to load; keyword search still works', e),
  );
}
