import { describe, expect, it } from 'vitest';
import { hamming } from '../../src/vectors/code-partition.js';
import { PARTITION_MIN_SIZE, QuantizedIndex } from '../../src/vectors/quantized-index.js';
import { SemanticIndexes, type StoredVector } from '../../src/vectors/semantic-index.js';

const DIM = 512;

/** A seeded generator in [-1, 1). */
function rng(seed: number) {
  return () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
}
const unit = (v: Float32Array) => {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s);
  return v.map((x) => x / n);
};
const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
/** Unit vectors in 40 topics x 25 sub-topics plus noise: neighbourhoods like real embeddings have. */
const r0 = rng(11);
const topics = Array.from({ length: 40 }, () => Float32Array.from({ length: DIM }, r0));
const subtopics = Array.from({ length: 1000 }, () => Float32Array.from({ length: DIM }, r0));
function vectors(n: number, seed: number): Float32Array[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    const s = Math.floor(((r() + 1) / 2) * 1000) % 1000;
    return unit(Float32Array.from({ length: DIM }, (_, j) => topics[s % 40][j] + 0.8 * subtopics[s][j] + 0.6 * r()));
  });
}

/** recall@10 of the index against brute force over `live` (seq -> vector). */
function recall(ix: QuantizedIndex, live: Map<number, Float32Array>, queries: Float32Array[]): number {
  let found = 0;
  for (const q of queries) {
    const exact = [...live].map(([seq, v]) => ({ seq, s: dot(q, v) })).sort((a, b) => b.s - a.s).slice(0, 10);
    const want = new Set(exact.map((e) => e.seq));
    const got = ix.search(q, 10);
    expect(got).toHaveLength(10);
    for (const g of got) expect(live.has(g.seq)).toBe(true);
    found += got.filter((g) => want.has(g.seq)).length;
  }
  return found / (queries.length * 10);
}

describe('hamming', () => {
  it('counts differing bits like a bit-by-bit count', () => {
    const r = rng(5);
    const word = () => Math.floor(((r() + 1) / 2) * 2 ** 32) >>> 0;
    for (const words of [1, 3, 16]) {
      for (let t = 0; t < 50; t++) {
        const a = Uint32Array.from({ length: words }, word);
        const b = t === 0 ? a.map((x) => ~x >>> 0) : Uint32Array.from({ length: words }, word);
        let want = 0;
        for (let i = 0; i < words; i++) for (let x = (a[i] ^ b[i]) >>> 0; x; x >>>= 1) want += x & 1;
        expect(hamming(a, 0, b, 0, words)).toBe(want);
      }
    }
  });
});

describe('QuantizedIndex with its coarse partition', () => {
  const n = PARTITION_MIN_SIZE + 10_000;
  const vs = vectors(n, 7);
  const queries = vectors(20, 99);

  it('is built past the threshold and finds the exact top 10 as the flat scan does', () => {
    const ix = new QuantizedIndex(DIM);
    const live = new Map<number, Float32Array>();
    vs.forEach((v, i) => (ix.upsert(i + 1, v), live.set(i + 1, v)));
    expect(ix.partitioned).toBe(false);
    expect(ix.partitionDue()).toBe(true);
    expect(ix.buildPartition()).toBe(true);
    expect(ix.partitioned).toBe(true);
    expect(ix.partitionDue()).toBe(false);
    const withPartition = recall(ix, live, queries);
    ix.usePartition = false;
    const flat = recall(ix, live, queries);
    expect(withPartition).toBeGreaterThanOrEqual(0.95);
    expect(withPartition).toBeGreaterThanOrEqual(flat - 0.02);
    // The lists, centroids and slot maps cost a few bytes a vector, not a second copy.
    expect(ix.bytesPerVector()).toBeLessThan(620);
  });

  it('follows inserts, updates and deletes made after training, and while it is rebuilt', () => {
    const ix = new QuantizedIndex(DIM);
    const live = new Map<number, Float32Array>();
    vs.forEach((v, i) => (ix.upsert(i + 1, v), live.set(i + 1, v)));
    ix.buildPartition();
    // Delete each query's exact top 3: they must never come back.
    const gone = new Set<number>();
    for (const q of queries) for (const h of ix.search(q, 3)) gone.add(h.seq);
    for (const seq of gone) (ix.remove(seq), live.delete(seq));
    for (const q of queries) for (const h of ix.search(q, 10)) expect(gone.has(h.seq)).toBe(false);
    // A k that takes every list: each live vector once, nothing deleted.
    const all = ix.search(queries[1], live.size - 1);
    expect(all).toHaveLength(live.size - 1);
    expect(new Set(all.map((h) => h.seq)).size).toBe(all.length);
    for (const h of all) expect(live.has(h.seq)).toBe(true);
    // Move a vector onto a query: it is that query's nearest now, and no longer near where it was.
    ix.upsert(5, queries[0]);
    live.set(5, queries[0]);
    const top = ix.search(queries[0], 1)[0];
    expect(top.seq).toBe(5);
    expect(top.score).toBeGreaterThan(0.95);
    // New vectors (reusing the deleted slots) are found by their own vector.
    const fresh = vectors(200, 31);
    fresh.forEach((v, i) => (ix.upsert(n + 1 + i, v), live.set(n + 1 + i, v)));
    for (const [i, v] of fresh.entries()) expect(ix.search(v, 1)[0].seq).toBe(n + 1 + i);
    expect(recall(ix, live, queries)).toBeGreaterThanOrEqual(0.95);

    // Doubling the index makes a new partition due; it is built in slices while writes go on.
    const more = vectors(n, 8);
    more.forEach((v, i) => (ix.upsert(2 * n + i, v), live.set(2 * n + i, v)));
    expect(ix.partitionDue()).toBe(true);
    let slices = 0;
    const movedDuring: number[] = [];
    while (!ix.buildPartition(0)) {
      slices++;
      if (slices % 3 === 0) {
        const seq = 2 * n + ((slices * 7919) % n); // update one: it moves lists
        const v = vectors(1, slices)[0];
        ix.upsert(seq, v);
        live.set(seq, v);
        movedDuring.push(seq);
      }
      if (slices % 5 === 0) {
        const seq = 1 + ((slices * 104_729) % n); // delete one
        ix.remove(seq);
        live.delete(seq);
      }
    }
    expect(slices).toBeGreaterThan(10);
    expect(ix.partitioned).toBe(true);
    expect(ix.partitionDue()).toBe(false);
    for (const seq of movedDuring.slice(-20)) if (live.has(seq)) expect(ix.search(live.get(seq)!, 1)[0].seq).toBe(seq);
    const probe = [...live.keys()].filter((_, i) => i % 997 === 0);
    for (const seq of probe) expect(ix.search(live.get(seq)!, 1)[0].seq).toBe(seq);
    expect(recall(ix, live, queries)).toBeGreaterThanOrEqual(0.95);

    // Shrunk far below the threshold, the partition is dropped: the flat scan answers.
    for (const seq of [...live.keys()].slice(PARTITION_MIN_SIZE / 4)) (ix.remove(seq), live.delete(seq));
    expect(ix.partitioned).toBe(false);
    expect(recall(ix, live, queries)).toBeGreaterThanOrEqual(0.95);
  });
});

describe('SemanticIndexes and the partition', () => {
  const dim = DIM;
  function source(rows: StoredVector[]) {
    return {
      rows,
      space: async () => ({ model_id: 'm', dimension: dim }),
      page: async (_t: string, after: number, limit: number) => {
        const next = rows.filter((r) => r.seq > after).slice(0, limit);
        return { vectors: next, last: next.length ? next[next.length - 1].seq : null };
      },
      some: async (_t: string, ids: string[]) => rows.filter((r) => ids.includes(r.id)),
    };
  }
  const row = (seq: number, v: Float32Array): StoredVector => ({ seq, id: `n${seq}`, embedding: Buffer.from(v.buffer.slice(0)) });

  it('keeps a tenant below the threshold on the flat scan, even when it grows a little', async () => {
    const vs = vectors(3000, 3);
    const src = source(vs.map((v, i) => row(i + 1, v)));
    const ix = new SemanticIndexes(src);
    expect(await ix.warm('t')).toBe(3000);
    src.rows.push(row(5000, vs[0]));
    await ix.onEmbedded('t', ['n5000']);
    await new Promise((r) => setImmediate(r));
    expect(ix.stats('t')).toMatchObject({ vectors: 3001, partitioned: false });
    const hits = (await ix.search('t', vs[10], 2)).map((h) => h.id);
    expect(hits[0]).toBe('n11');
  });

  it('builds the partition as the last slices of a background load, and again in the background once the tenant has doubled', async () => {
    const vs = vectors(PARTITION_MIN_SIZE + 500, 4);
    const src = source(vs.map((v, i) => row(i + 1, v)));
    const ix = new SemanticIndexes(src);
    await ix.willLoad(['t']);
    let slices = 0;
    while (!await ix.loadSome('t', 1000)) slices++;
    expect(await ix.isComplete('t')).toBe(true);
    expect(ix.stats('t').partitioned).toBe(true);
    expect(slices).toBeGreaterThan(PARTITION_MIN_SIZE / 1000);
    const before = ix.stats('t');
    expect(before.partition_build_ms).toBeGreaterThan(0);

    const more = vectors(PARTITION_MIN_SIZE + 1000, 5);
    const base = vs.length + 1;
    more.forEach((v, i) => src.rows.push(row(base + i, v)));
    await ix.onEmbedded('t', more.map((_, i) => `n${base + i}`));
    const until = Date.now() + 60_000;
    while (ix.stats('t').partition_build_ms === before.partition_build_ms && Date.now() < until) {
      // the new vectors are searchable at once, through the old partition meanwhile
      expect((await ix.search('t', more[7], 1))[0].id).toBe(`n${base + 7}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(ix.stats('t')).toMatchObject({ vectors: vs.length + more.length, partitioned: true });
    expect(ix.stats('t').partition_build_ms).not.toBe(before.partition_build_ms);
    expect((await ix.search('t', more[100], 1))[0].id).toBe(`n${base + 100}`);
  });
});
