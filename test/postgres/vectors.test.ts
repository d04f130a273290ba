// Vectors on PostgreSQL: PgVectorsRepo (node_vectors bytea) answers the repository scenario
// SQLite's VectorsRepo (vec0) answers in test/foundation/repo-scenarios.test.ts, and the
// whole VectorStore — write path, the in-memory index loaded from the table, the exact
// k-NN while it loads — gives the same answers on both engines.
import { raw } from '../helpers/raw.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open.js';
import type { Database as Db } from '../../src/db/store/contract.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { fts5NodeKeywords } from '../../src/repos/keyword-index.repo.js';
import { NodesRepo } from '../../src/repos/nodes.repo.js';
import { PgKeywordIndex } from '../../src/repos/pg/keyword-index.pg.js';
import { PgVectorsRepo } from '../../src/repos/pg/vectors.pg.js';
import { TenantsRepo } from '../../src/repos/tenants.repo.js';
import { VectorsRepo, type VectorsApi } from '../../src/repos/vectors.repo.js';
import { embeddingText } from '../../src/search/embedding-text.js';
import { normalize } from '../../src/vectors/math.js';
import { VectorStore } from '../../src/vectors/vector-store.js';
import { seededVectors, vectorsScenario } from '../helpers/repo-scenarios.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

const MODEL = 'model-t';
const DIM = 64;
const N = 3_000;

/** The same nodes, vectors and queries on either engine; what the VectorStore answered. */
async function storeRun(db: Db, vectors: () => VectorsApi, nodes: NodesRepo) {
  const tenants = new TenantsRepo(db);
  await tenants.insert({ id: 'ten_a', name: 'alpha', created_at: '2026-11-23T09:00:00.000Z' });
  await tenants.insert({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T09:00:00.000Z' });
  const ins = raw(db).prepare(
    `INSERT INTO nodes (id, tenant_id, title, summary, body_markdown, tags, status, created_at, updated_at)
     VALUES (?, ?, ?, '', '', '[]', ?, '2026-11-23T09:00:00.000Z', '2026-11-23T09:00:00.000Z')`,
  );
  await db.withTx(async () => {
    for (let i = 0; i < N; i++) await ins.run(`nod_a${i}`, 'ten_a', `Note ${i}`, i % 3 === 0 ? 'validated' : 'raw');
    for (let i = 0; i < 40; i++) await ins.run(`nod_b${i}`, 'ten_b', `Other ${i}`, 'raw');
  });
  const tx = db;
  const writer = new VectorStore({ repo: vectors(), nodes, tx });
  expect(await writer.ensureSpace(MODEL, DIM, '2026-11-23T09:00:00.000Z')).toBe(true);
  expect(await writer.ensureSpace(MODEL, DIM, '2026-11-23T09:00:00.000Z')).toBe(false);
  const va = seededVectors(21, N, DIM).map(normalize);
  const vb = seededVectors(22, 40, DIM).map(normalize);
  const write = async (tenant: string, prefix: string, vs: Float32Array[]) => {
    const rows = await nodes.getByIds(tenant, vs.map((_, i) => `${prefix}${i}`));
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (let i = 0; i < vs.length; i += 500) {
      const writes = vs.slice(i, i + 500).map((vector, j) => ({ nodeId: `${prefix}${i + j}`, text: embeddingText(byId.get(`${prefix}${i + j}`)!), vector }));
      expect(await writer.storeNodeVectors(tenant, writes, MODEL)).toHaveLength(writes.length);
    }
  };
  await write('ten_a', 'nod_a', va);
  await write('ten_b', 'nod_b', vb);
  // A write for a text the node no longer has is refused, on both.
  expect(await writer.storeNodeVectors('ten_a', [{ nodeId: 'nod_a1', text: 'stale text', vector: va[1] }], MODEL)).toEqual([]);

  const queries = seededVectors(23, 8, DIM).map(normalize);
  const ids = (hits: { id: string }[]) => hits.map((h) => h.id);
  // A new process: the index loads from the table.
  const store = new VectorStore({ repo: vectors(), nodes, tx });
  const out = {
    warm: await store.warm('ten_a'),
    count: await store.count('ten_b'),
    nearest: [] as string[][],
    scores: [] as number[][],
    filtered: [] as string[][],
    other: ids(await store.nearest('ten_b', queries[0], 100)),
    exact: [] as string[][],
    afterDelete: [] as string[],
    sliced: [] as string[][],
  };
  for (const q of queries) {
    out.nearest.push(ids(await store.nearest('ten_a', q, 10)));
    out.scores.push((await store.nearest('ten_a', q, 10)).map((h) => h.score));
    out.filtered.push(ids(await store.nearest('ten_a', q, 5, { status: 'validated' })));
  }
  // While the index loads in the background, answers come from the table, exactly.
  const loading = new VectorStore({ repo: vectors(), nodes, tx });
  await loading.willLoad(['ten_a']);
  for (const q of queries) out.exact.push(ids(await loading.nearest('ten_a', q, 10)));
  let slices = 0;
  while (!await loading.loadSome('ten_a', 700)) slices++;
  expect(slices).toBeGreaterThan(0);
  for (const q of queries) out.sliced.push(ids(await loading.nearest('ten_a', q, 10)));
  // A node's vector removed: gone from the answers once committed.
  const top = out.nearest[0][0];
  await tx.withTx(async () => await store.removeNode('ten_a', (await nodes.get('ten_a', top))!.seq));
  out.afterDelete = ids(await store.nearest('ten_a', queries[0], 10));
  expect(out.afterDelete).not.toContain(top);
  return { out, va, queries };
}

describePg('PgVectorsRepo and the VectorStore on PostgreSQL', () => {
  let pgdb: TestPgDatabase;
  let db: PgStore;
  beforeEach(async () => {
    pgdb = await createTestDatabase({ migrated: true });
    db = new PgStore(pgdb.url);
  });
  afterEach(async () => {
    await db.close();
    await pgdb.drop();
  });

  it('PgVectorsRepo answers the vectors scenario as VectorsRepo does on SQLite', async () => {
    await vectorsScenario(db, (d) => new PgVectorsRepo(d as PgStore));
  });

  it('stores the vectors as vec0 does: little-endian float32 bytes', async () => {
    const repo = new PgVectorsRepo(db);
    await repo.recreate(MODEL, 3, '2026-11-23T09:00:00.000Z');
    await repo.upsert('ten_a', 1, Float32Array.from([1, -2.5, 0.125]));
    const bytes = (await db.query<{ embedding: Uint8Array }>('SELECT embedding FROM node_vectors WHERE seq = 1')).rows[0].embedding;
    const expected = Buffer.alloc(12);
    [1, -2.5, 0.125].forEach((x, i) => expected.writeFloatLE(x, i * 4));
    expect(Buffer.from(bytes).equals(expected)).toBe(true);
  });

  it('the VectorStore loads a tenant\'s index from PostgreSQL and answers k-NN as it does from SQLite', async () => {
    const lite = new SqliteStore(openDatabase(':memory:'));
    try {
      const a = await storeRun(lite, () => new VectorsRepo(lite), new NodesRepo(lite, fts5NodeKeywords(lite)));
      const b = await storeRun(db, () => new PgVectorsRepo(db), new NodesRepo(db, new PgKeywordIndex(db)));
      expect(b.out.warm).toBe(N);
      expect(b.out.count).toBe(40);
      expect(b.out.nearest).toEqual(a.out.nearest);
      b.out.scores.forEach((s, i) => s.forEach((x, j) => expect(x).toBeCloseTo(a.out.scores[i][j], 6)));
      expect(b.out.filtered).toEqual(a.out.filtered);
      expect(b.out.other).toEqual(a.out.other);
      expect(b.out.other).toHaveLength(40);
      expect(b.out.exact).toEqual(a.out.exact);
      expect(b.out.sliced).toEqual(a.out.sliced);
      expect(b.out.afterDelete).toEqual(a.out.afterDelete);
      // The exact answers are brute force's; the index's top hit is brute force's top hit.
      b.queries.forEach((q, i) => {
        const brute = b.va.map((v, j) => ({ id: `nod_a${j}`, s: v.reduce((acc, x, d) => acc + x * q[d], 0) })).sort((x, y) => y.s - x.s);
        expect(b.out.exact[i]).toEqual(brute.slice(0, 10).map((h) => h.id));
        expect(b.out.nearest[i][0]).toBe(brute[0].id);
      });
    } finally {
      await lite.close();
    }
  });
});
