// Admin commands act on the data folder directly, server running or not
// (WAL lets them share the file with a running server), or on its PostgreSQL database.
import type { Config } from '../config.js';
import { buildContainer, type Services } from '../container.js';
import { closeStore, openStore } from '../db/store.js';
import { LazyEmbedder } from '../embed/lazy-embedder.js';
import { createLogger } from '../logger.js';

export async function withServices<T>(config: Config, fn: (s: Services) => T | Promise<T>): Promise<T> {
  const db = await openStore(config);
  const embedder = new LazyEmbedder({ model: config.embedModel, cacheDir: config.dataDir });
  try {
    // Admin commands never embed: the container is built but nothing is wired or started.
    return await fn(await buildContainer({ config, db, embedder, log: createLogger('error') }));
  } finally {
    await embedder.close();
    // A running server may own the file: fold in only what needs no waiting for it.
    await closeStore(db, { checkpoint: 'PASSIVE' });
  }
}
