// One eval tenant on the real container: a fresh data folder on SQLite, the given embedder
// (the real model, shared across collections), the job queue running, one tenant created.
// `close()` stops the queue and removes the folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { loadConfig } from '../../src/config.js';
import { buildContainer, type Container } from '../../src/container.js';
import { openDatabase } from '../../src/db/open.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { memoryLogger } from '../../src/logger.js';
import { wire } from '../../src/wiring.js';

export interface EvalApp {
  s: Container;
  db: Database.Database;
  tenantId: string;
  close(): Promise<void>;
}

export async function openEvalApp(embedder: Embedder, prefix: string): Promise<EvalApp> {
  const dataDir = mkdtempSync(join(tmpdir(), `rhizome-${prefix}-`));
  const db = openDatabase(join(dataDir, 'rhizome.db'));
  const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder, log: memoryLogger() }));
  await s.embedding.init();
  await s.queue.start();
  const { tenant_id: tenantId } = await s.tenants.create('eval');
  return {
    s,
    db,
    tenantId,
    async close() {
      await s.queue.stop();
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
