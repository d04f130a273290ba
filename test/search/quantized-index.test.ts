import { describe, expect, it } from 'vitest';
import { QuantizedIndex } from '../../src/vectors/quantized-index.js';
import { SemanticIndexes, type StoredVector } from '../../src/vectors/semantic-index.js';

function rng(seed: number) {
  return () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
}
const unit = (v: Float32Array) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
/** Unit vectors in topics and sub-topics plus noise: neighbourhoods like real embeddings have. */
const r0 = rng(3);
const topics = Array.from({ length: 20 }, () => Float32Array.from({ length: 512 }, r0));
const subtopics = Array.from({ length: 500 }, () => Float32Array.from({ length: 512 }, r0));
function corpus(n: number, dim: number, seed = 7) {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    const s = Math.floor(((r() + 1) / 2) * 500) % 500;
    return unit(Float32Array.from({ length: dim }, (_, j) => topics[s % 20][j] + 0.8 * subtopics[s][j] + 0.6 * r()));
  });
}
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('QuantizedIndex', () => {
  const dim = 256;
  const vs = corpus(5000, dim);
  const ix = new QuantizedIndex(dim);
  vs.forEach((v, i) => ix.upsert(i + 1, v));

  it('scores given seqs with the same approximate cosine search() gives, and skips unknown ones', () => {
    const [q] = corpus(1, dim, 5);
    const top = ix.search(q, 5, 5000);
    const far = [4000, 4500, 4999];
    const got = new Map(ix.scoreOf(q, [...top.map((h) => h.seq), ...far, 999_999]).map((h) => [h.seq, h.score]));
    expect(got.size).toBe(top.length + far.length);
    for (const h of top) expect(got.get(h.seq)).toBe(h.score);
    for (const seq of far) expect(got.get(seq)).toBeCloseTo(dot(q, vs[seq - 1]), 1);
    expect(ix.scoreOf(new Float32Array(3), [1])).toEqual([]);
  });

  it('finds the exact top 10 (recall >= 0.95) with approximate cosines', () => {
    const queries = corpus(20, dim, 99);
    let found = 0;
    for (const q of queries) {
      const exact = vs.map((v, i) => ({ seq: i + 1, s: dot(q, v) })).sort((a, b) => b.s - a.s).slice(0, 10);
      const got = ix.search(q, 10, 100); // 2% of the index
      expect(got).toHaveLength(10);
      expect(got[0].score).toBeCloseTo(exact[0].s, 1);
      const want = new Set(exact.map((e) => e.seq));
      found += got.filter((g) => want.has(g.seq)).length;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.95);
  });

  it('replaces a vector on upsert, forgets a removed one, reuses its slot', () => {
    const small = new QuantizedIndex(4);
    small.upsert(1, unit(new Float32Array([1, 0, 0, 0])));
    small.upsert(2, unit(new Float32Array([0, 1, 0, 0])));
    const q = unit(new Float32Array([1, 0.1, 0, 0]));
    expect(small.search(q, 1)[0].seq).toBe(1);
    small.upsert(1, unit(new Float32Array([0, 0, 1, 0])));
    expect(small.search(q, 1)[0].seq).toBe(2);
    small.remove(2);
    expect(small.search(q, 5).map((h) => h.seq)).toEqual([1]);
    small.upsert(3, unit(new Float32Array([1, 0, 0, 0])));
    expect(small.size).toBe(2);
    expect(small.search(q, 5).map((h) => h.seq)).toEqual([3, 1]);
  });

  it('returns nothing for an empty index, k <= 0 or a query of another dimension, and refuses wrong-sized vectors', () => {
    expect(new QuantizedIndex(8).search(new Float32Array(8), 3)).toEqual([]);
    expect(ix.search(vs[0], 0)).toEqual([]);
    expect(ix.search(new Float32Array(3), 3)).toEqual([]);
    expect(() => ix.upsert(1, new Float32Array(3))).toThrow();
  });
});

describe('SemanticIndexes', () => {
  const vec = (...xs: number[]) => Buffer.from(unit(Float32Array.from(xs)).buffer);
  function source() {
    const rows = new Map<string, StoredVector[]>([
      ['t1', [{ seq: 1, id: 'a', embedding: vec(1, 0) }, { seq: 2, id: 'b', embedding: vec(0, 1) }]],
      ['t2', [{ seq: 3, id: 'c', embedding: vec(1, 0) }]],
    ]);
    const src = {
      model: 'm1',
      reads: 0,
      rows,
      space: async () => ({ model_id: src.model, dimension: 2 }),
      page: async (t: string, after: number, limit: number) => {
        if (after === 0) src.reads++;
        const next = (rows.get(t) ?? []).filter((r) => r.seq > after).sort((a, b) => a.seq - b.seq).slice(0, limit);
        return { vectors: next, last: next.length ? next[next.length - 1].seq : null };
      },
      some: async (t: string, ids: string[]) => (rows.get(t) ?? []).filter((r) => ids.includes(r.id)),
    };
    return src;
  }

  it('keeps tenants apart and returns node ids', async () => {
    const ix = new SemanticIndexes(source());
    expect((await ix.search('t1', new Float32Array([1, 0]), 5)).map((h) => h.id)).toEqual(['a', 'b']);
    expect((await ix.search('t2', new Float32Array([0, 1]), 5)).map((h) => h.id)).toEqual(['c']);
    expect(await ix.search('t3', new Float32Array([0, 1]), 5)).toEqual([]);
  });

  it('loads a tenant once, then follows afterEmbed updates', async () => {
    const src = source();
    const ix = new SemanticIndexes(src);
    expect(await ix.warm('t1')).toBe(2);
    src.rows.get('t1')!.push({ seq: 9, id: 'z', embedding: vec(-1, 1) });
    await ix.onEmbedded('t1', ['z']);
    expect((await ix.search('t1', new Float32Array([-1, 0]), 1))[0].id).toBe('z');
    expect(src.reads).toBe(1);
  });

  it('drops every index when the embedding space changes', async () => {
    const src = source();
    const ix = new SemanticIndexes(src);
    await ix.warm('t1');
    src.model = 'm2';
    await ix.warm('t1');
    expect(src.reads).toBe(2);
  });

  it('loads in slices: incomplete until every page is read, and vectors written meanwhile are kept', async () => {
    const src = source();
    const ix = new SemanticIndexes(src);
    expect(await ix.isComplete('t1')).toBe(false);
    expect(await ix.isLoading('t1')).toBe(false); // nobody loads it: a query would load it all
    expect(await ix.loadSome('t1', 1)).toBe(false);
    expect(await ix.isLoading('t1')).toBe(true);
    expect(ix.size('t1')).toBe(1);
    expect(await ix.isComplete('t1')).toBe(false);
    src.rows.get('t1')!.push({ seq: 9, id: 'z', embedding: vec(-1, 1) });
    await ix.onEmbedded('t1', ['z']); // written while loading: in the index at once
    expect(ix.size('t1')).toBe(2);
    expect(await ix.loadSome('t1', 1)).toBe(false); // seq 2
    expect(await ix.loadSome('t1', 1)).toBe(false); // seq 9 again, harmlessly
    expect(await ix.loadSome('t1', 1)).toBe(true);
    expect(await ix.isComplete('t1')).toBe(true);
    expect(ix.size('t1')).toBe(3);
    expect(src.reads).toBe(1);
    // A change of embedding space makes it incomplete again.
    src.model = 'm2';
    expect(await ix.isComplete('t1')).toBe(false);
  });

  it('forgets pruned seqs', async () => {
    const ix = new SemanticIndexes(source());
    await ix.warm('t1');
    ix.forget('t1', [1]);
    expect((await ix.search('t1', new Float32Array([1, 0]), 5)).map((h) => h.id)).toEqual(['b']);
  });
  it('an index of passages: hits name their node, a newer node at the same seq replaces the older one\'s passages', async () => {
    const src = source();
    src.rows.set('p', [
      { seq: 10, id: 'n1', owner: 1, embedding: vec(1, 0) },
      { seq: 11, id: 'n1', owner: 1, embedding: vec(1, 1) },
      { seq: 12, id: 'n2', owner: 2, embedding: vec(0, 1) },
    ]);
    const ix = new SemanticIndexes(src);
    await ix.warm('p');
    expect((await ix.search('p', new Float32Array([1, 0]), 3)).map((h) => [h.seq, h.id, h.owner])).toEqual([[10, 'n1', 1], [11, 'n1', 1], [12, 'n2', 2]]);
    expect(await ix.keysOf('p', [1])).toEqual([10, 11]);
    // Node n1 was deleted and n3 took its seq; n3's one passage arrives.
    src.rows.get('p')!.push({ seq: 13, id: 'n3', owner: 1, embedding: vec(-1, 1) });
    await ix.onEmbedded('p', ['n3']);
    expect(await ix.keysOf('p', [1])).toEqual([13]);
    expect((await ix.search('p', new Float32Array([1, 0]), 5)).map((h) => [h.seq, h.id])).toEqual([[12, 'n2'], [13, 'n3']]);
    ix.forgetOwners('p', [2]);
    expect((await ix.search('p', new Float32Array([1, 0]), 5)).map((h) => h.id)).toEqual(['n3']);
  });
});

describe('QuantizedIndex over 20k+ vectors (two-pass Hamming)', () => {
  it('keeps recall@10 >= 0.95 against exact search', () => {
    const dim = 512; // 16 words a code: the 8-word prefix pass runs
    const vs = corpus(25_000, dim, 5);
    const ix = new QuantizedIndex(dim);
    vs.forEach((v, i) => ix.upsert(i + 1, v));
    let found = 0;
    for (const q of corpus(10, dim, 77)) {
      const exact = new Set(vs.map((v, i) => ({ seq: i + 1, s: dot(q, v) })).sort((a, b) => b.s - a.s).slice(0, 10).map((e) => e.seq));
      found += ix.search(q, 10).filter((g) => exact.has(g.seq)).length;
    }
    expect(found / 100).toBeGreaterThanOrEqual(0.95);
  });
});
