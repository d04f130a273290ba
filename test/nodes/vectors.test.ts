import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { normalize } from '../../src/vectors/math.js';
import { VectorsRepo } from '../../src/repos/vectors.repo.js';
import { makeTestApp } from '../helpers/app.js';

const D = 64;
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) - 0.5;
const sample = () => normalize(Float32Array.from({ length: D }, rnd));

async function setup(n: number) {
  const db = new SqliteStore(openDatabase(':memory:'));
  await db.prepare("INSERT INTO tenants (id, name, created_at) VALUES ('ten_a', 'a', 'x'), ('ten_b', 'b', 'x')").run();
  const repo = new VectorsRepo(db);
  await repo.recreate('test', D, 'x');
  const ins = db.prepare("INSERT INTO nodes (id, tenant_id, title, created_at, updated_at, embedded_hash) VALUES (?, ?, 't', 'x', 'x', 'h')");
  const vecs: Float32Array[] = [];
  const seqs: number[] = [];
  for (let i = 0; i < n; i++) {
    seqs.push(Number((await ins.run(`nod_${i}`, 'ten_a')).lastInsertRowid));
    vecs.push(sample());
    await repo.upsert('ten_a', seqs[i], vecs[i]);
  }
  return { db, repo, vecs, seqs };
}

describe('the exact vector store', () => {
  it('finds a vector itself first, in distance order, within its tenant only', async () => {
    const { repo, vecs } = await setup(200);
    const hits = await repo.knnExact('ten_a', vecs[42], 10);
    expect(hits[0]).toMatchObject({ id: 'nod_42' });
    expect(hits[0].distance).toBeCloseTo(0, 5);
    for (let i = 1; i < hits.length; i++) expect(hits[i].distance).toBeGreaterThanOrEqual(hits[i - 1].distance);
    expect(await repo.knnExact('ten_b', vecs[42], 10)).toEqual([]);
    expect(Array.from((await repo.get('ten_a', 'nod_42'))!)).toEqual(Array.from(vecs[42]));
    expect(await repo.get('ten_b', 'nod_42')).toBeNull();
  });

  it('replaces on upsert and forgets on delete', async () => {
    const { db, repo, vecs, seqs } = await setup(20);
    await repo.upsert('ten_a', seqs[0], vecs[1]);
    expect(await db.prepare('SELECT count(*) FROM node_vectors').pluck().get()).toBe(20);
    await repo.delete(seqs[0]);
    expect((await repo.knnExact('ten_a', vecs[1], 20)).map((h) => h.id)).not.toContain('nod_0');
  });

  it("loads the same vectors a chunk at a time as rowid by rowid: several chunks, two tenants, deleted and replaced vectors, a vector whose node is gone", async () => {
    const { db, repo, vecs, seqs } = await setup(2500);
    const insB = db.prepare("INSERT INTO nodes (id, tenant_id, title, created_at, updated_at, embedded_hash) VALUES (?, 'ten_b', 't', 'x', 'x', 'h')");
    for (let i = 0; i < 300; i++) await repo.upsert('ten_b', Number((await insB.run(`nob_${i}`)).lastInsertRowid), sample());
    for (const i of [0, 5, 1023, 1024, 2499]) await repo.delete(seqs[i]);
    for (const i of [7, 1500]) await repo.upsert('ten_a', seqs[i], vecs[i + 1]);
    await db.prepare('DELETE FROM nodes WHERE seq = ?').run(seqs[42]); // its vector stays: the loader must skip it
    const readAll = async (r: VectorsRepo, tenant: string, limit: number) => {
      const out = new Map<number, { id: string; v: number[] }>();
      let after = 0;
      let pages = 0;
      for (;;) {
        const { vectors, last } = await r.page(tenant, after, limit);
        for (const v of vectors) out.set(v.seq, { id: v.id, v: Array.from(new Float32Array(v.embedding.buffer.slice(v.embedding.byteOffset, v.embedding.byteOffset + v.embedding.byteLength))) });
        if (last === null) break;
        after = last;
        pages++;
      }
      return { out, pages };
    };
    const byRowid = new VectorsRepo(db, { chunks: false });
    for (const tenant of ['ten_a', 'ten_b']) {
      const chunked = await readAll(repo, tenant, 1000);
      const plain = await readAll(byRowid, tenant, 1000);
      expect(chunked.out).toEqual(plain.out);
      if (tenant === 'ten_a') {
        expect(chunked.out.size).toBe(2500 - 5 - 1);
        expect(chunked.out.get(seqs[7])!.v).toEqual(Array.from(vecs[8]));
        expect(chunked.pages).toBeLessThan(plain.pages + 1);
      }
    }
    // The chunk reader is in use where the table's layout is the known one: a page is a
    // whole chunk (1,024 slots less 3 deleted, 1 replaced — it moved to a later chunk — and
    // 1 whose node is gone), where rowid reads stop at the limit.
    expect(await db.prepare("SELECT value FROM node_vectors_info WHERE key = 'CREATE_VERSION'").pluck().get()).toBe('v0.1.9');
    expect((await repo.page('ten_a', 0, 1000)).vectors).toHaveLength(1019);
    expect((await byRowid.page('ten_a', 0, 1000)).vectors.length).toBeLessThanOrEqual(1000);
  });

  it('refuses to replace the table for a model with no id or dimension', async () => {
    const t = await makeTestApp();
    await t.s.embedding.init();
    const before = await t.s.vectors.space();
    await expect(t.s.vectors.ensureSpace('', 0, 'x')).rejects.toThrow(/refusing/);
    await expect(t.s.vectors.ensureSpace('lazy', 0, 'x')).rejects.toThrow(/refusing/);
    expect(await t.s.vectors.space()).toEqual(before);
    await t.close();
  });
});

describe('s.vectors.knn: the one approximate k-NN path (suggestions, context, captures)', () => {
  it('agrees with exact search and never returns deleted or foreign nodes', async () => {
    const t = await makeTestApp();
    await t.s.queue.start();
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push((await (await t.req('POST', '/api/v1/nodes', { title: `note ${i} about ${['herons', 'walnuts', 'tides'][i % 3]} ${i}` })).json()).id);
    await t.s.queue.idle();
    const q = (await t.s.vectors.get(t.tenantId, ids[7]))!;
    const exact = await t.s.vectors.knnExact(t.tenantId, q, 10);
    const fast = await t.s.vectors.knn(t.tenantId, q, 10);
    expect(fast[0].id).toBe(ids[7]);
    expect(fast).toHaveLength(10);
    // Near-ties may swap under int8 rerank; every hit must still be as close as the exact 10th.
    const cos = async (id: string) => (await t.s.vectors.get(t.tenantId, id))!.reduce((acc, x, i) => acc + x * q[i], 0);
    for (const h of fast) expect(await cos(h.id)).toBeGreaterThanOrEqual(1 - exact[9].distance - 0.02);
    await t.req('DELETE', `/api/v1/nodes/${ids[7]}`);
    expect((await t.s.vectors.knn(t.tenantId, q, 10)).map((h) => h.id)).not.toContain(ids[7]);
    const b = await t.tenant('beta');
    expect(await t.s.vectors.knn(b.tenantId, q, 10)).toEqual([]);
    await t.close();
  });
});

describe('the in-memory index loading in slices after a start', () => {
  it('answers exactly from vec0 until complete, counts without loading, then uses the index', async () => {
    const t = await makeTestApp();
    await t.s.queue.start();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await (await t.req('POST', '/api/v1/nodes', { title: `note ${i} about ${['herons', 'walnuts', 'tides'][i % 3]} ${i}` })).json()).id);
    await t.s.queue.idle();
    // A second store over the same database: what a restarted server holds before loading.
    const { VectorStore } = await import('../../src/vectors/vector-store.js');
    const fresh = new VectorStore({ repo: t.s.repos.vectors, nodes: t.s.repos.nodes, tx: t.s.tx });
    const q = (await t.s.vectors.get(t.tenantId, ids[4]))!;
    const exact = (await t.s.vectors.knnExact(t.tenantId, q, 5)).map((h) => h.id);
    await fresh.willLoad([t.tenantId]); // what startBackground announces
    expect(await fresh.count(t.tenantId)).toBe(30); // counted from the nodes table, nothing loaded
    expect(await fresh.loadSome(t.tenantId, 10)).toBe(false); // one slice: still incomplete
    const near = await fresh.nearest(t.tenantId, q, 5);
    expect(near.map((h) => h.id)).toEqual(exact);
    expect(await fresh.nearest(t.tenantId, q, 5, { status: 'validated' })).toEqual([]);
    // The same score for a node whichever path read it.
    const sims = new Map((await fresh.similarities(t.tenantId, q, near.map((h) => h.seq))).map((h) => [h.seq, h.score]));
    for (const h of near) expect(sims.get(h.seq)).toBe(h.score);
    expect(sims.get(near[0].seq)).toBeCloseTo(1, 5);
    while (!await fresh.loadSome(t.tenantId, 10));
    expect(await fresh.count(t.tenantId)).toBe(30);
    expect((await fresh.nearest(t.tenantId, q, 1))[0].id).toBe(ids[4]);
    await t.close();
  });
});
