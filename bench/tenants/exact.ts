// The exact search the cold tenants' first searches are compared with: the same search
// service, in this process, on the same PostgreSQL database and with the same model for the
// query's vector, but with every tenant's vector side answered as a tenant whose index is
// still loading is answered: exactly, from the stored floats (VectorStore's nearestExact and
// exactScores), never from the in-memory quantised index. Keyword scoring is the engine's,
// as in the servers. The traffic writes nothing, so both see the same notes.
import { mkdtempSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildContainer } from '../../src/container.js';
import { closeStore, openStore } from '../../src/db/store.js';
import { startServerEmbedder } from '../../src/embed/server-embedder.js';
import { createApp } from '../../src/http/app.js';
import { memoryLogger } from '../../src/logger.js';
import type { SeededTenant } from './seed.js';
import { searchPath } from './traffic.js';

export interface ExactSearch {
  search(tenant: SeededTenant, query: string): Promise<{ ids: string[]; scores: number[] }>;
  close(): Promise<void>;
}

export async function exactSearch(seededDir: string, url: string): Promise<ExactSearch> {
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-tenants-exact-'));
  cpSync(seededDir, dir, { recursive: true, filter: (src) => !/rhizome\.db(-wal|-shm)?$/.test(src) });
  const config = loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' }, { databaseUrl: url });
  const log = memoryLogger();
  const db = await openStore(config);
  const embedder = startServerEmbedder(config, log);
  const s = await buildContainer({ config, db, embedder, log });
  await s.embedding.init();
  // Every tenant as if its index were loading: k-NN and similarities from storage, exactly.
  const store = s.vectors as unknown as { use: () => Promise<void>; loading: () => Promise<boolean> };
  store.use = async () => {};
  store.loading = async () => true;
  const app = createApp(s);
  return {
    async search(tenant, query) {
      const res = await app.request(searchPath(query, 'hybrid'), { headers: { Authorization: `ApiKey ${tenant.key}` } });
      if (res.status !== 200) throw new Error(`exact search: ${res.status} ${await res.text()}`);
      const data = ((await res.json()) as { data: Array<{ id: string; match_provenance?: { score: number } }> }).data;
      return { ids: data.map((d) => d.id), scores: data.map((d) => d.match_provenance?.score ?? NaN) };
    },
    async close() {
      await s.queue.stop();
      await s.limiters.close();
      await embedder.close();
      await closeStore(s.db);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
