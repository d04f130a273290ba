// The many-tenants bench's install: RHIZOME_TENANTS_COUNT tenants of RHIZOME_TENANTS_NOTES
// synthetic notes each (bench/synthetic.ts: skewed words about a topic, 512-d unit vectors
// with the topic's structure), one API key each. Written through the repositories into a
// SQLite file in big transactions (the search bench's way, minutes for a million notes rather
// than hours through the API and the model), in the default model's embedding space so the
// servers keep the vectors, then copied into a PostgreSQL template database by `rhizome
// migrate`'s code, which writes PostgreSQL's keyword rows as it does for an operator's move.
// Each run starts from a copy of the template (CREATE DATABASE … TEMPLATE).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { iso } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { buildContainer } from '../../src/container.js';
import { closeStore, openStore } from '../../src/db/store.js';
import { USE_LITE_MODEL_ID } from '../../src/embed/providers.js';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { newId } from '../../src/ids.js';
import { memoryLogger } from '../../src/logger.js';
import { embeddingKey } from '../../src/search/embedding-text.js';
import { sqliteToPostgres } from '../../src/transfer/to-postgres.js';
import { SyntheticCorpus } from '../synthetic.js';

export interface SeededTenant {
  name: string;
  id: string;
  key: string;
  /** The tenant's node ids, in the order written. */
  nodes: string[];
}

export interface Seeded {
  tenants: SeededTenant[];
  /** The queries the bench sends (text only: the servers embed them with the model). */
  queries: string[];
  sqlite_s: number;
  postgres_s: number;
}

/** Notes written per transaction. */
const BATCH = 5000;

/**
 * Seeds `dataDir` (its SQLite file, secrets and a `credentials` file naming the first
 * tenant's key) and copies the notebook into the empty PostgreSQL database at `url`.
 */
export async function seedTenants(o: { dataDir: string; url: string; tenants: number; notes: number; log: (line: Record<string, unknown>) => void }): Promise<Seeded> {
  const started = performance.now();
  const dbPath = join(o.dataDir, 'rhizome.db');
  const db = await openStore({ dbPath, databaseUrl: undefined, synchronous: 'NORMAL' });
  const s = await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: o.dataDir, RHIZOME_LOG: 'silent' }), db, embedder: new HashEmbedder(512), log: memoryLogger() });
  const now = Date.now();
  // The bundled model's space, so a server running it keeps these vectors instead of re-embedding.
  await s.vectors.ensureSpace(USE_LITE_MODEL_ID, 512, iso(now));
  const corpus = new SyntheticCorpus(512);
  const tenants: SeededTenant[] = [];
  for (let t = 0; t < o.tenants; t++) {
    const name = `bench-${String(t).padStart(4, '0')}`;
    const made = await s.tenants.create(name);
    tenants.push({ name, id: made.tenant_id, key: made.api_key, nodes: [] });
  }
  let pending: Array<{ tenant: SeededTenant; i: number }> = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    await s.db.withTx(async () => {
      for (const { tenant } of batch) {
        const n = corpus.note();
        const id = newId('nod');
        const at = iso(now - Math.floor(corpus.rand() * 365 * 86_400_000));
        const row = { title: n.title, summary: '', body_markdown: n.body };
        const seq = await s.repos.nodes.insert({ id, tenant_id: tenant.id, ...row, tags: JSON.stringify(n.tags), status: 'raw', created_at: at, updated_at: at });
        await s.repos.vectors.upsert(tenant.id, seq, corpus.vector(n.subtopic));
        await s.repos.nodes.markEmbedded(tenant.id, id, embeddingKey(row));
        tenant.nodes.push(id);
      }
    });
  };
  for (const tenant of tenants) {
    for (let i = 0; i < o.notes; i++) {
      pending.push({ tenant, i });
      if (pending.length >= BATCH) await flush();
    }
  }
  await flush();
  const queries = Array.from({ length: 2000 }, () => corpus.query().text);
  await s.queue.stop();
  await s.limiters.close();
  await closeStore(s.db, { checkpoint: 'TRUNCATE' });
  writeFileSync(join(o.dataDir, 'credentials'), JSON.stringify({ tenant: tenants[0].name, tenant_id: tenants[0].id, api_key: tenants[0].key }) + '\n', { mode: 0o600 });
  const sqliteS = (performance.now() - started) / 1000;
  o.log({ kind: 'tenants_seed_sqlite', tenants: o.tenants, notes_per_tenant: o.notes, seconds: round(sqliteS) });
  const copying = performance.now();
  await sqliteToPostgres(dbPath, o.url);
  const postgresS = (performance.now() - copying) / 1000;
  o.log({ kind: 'tenants_seed_postgres', seconds: round(postgresS) });
  return { tenants, queries, sqlite_s: round(sqliteS), postgres_s: round(postgresS) };
}

const round = (n: number) => Math.round(n * 10) / 10;
