// The keyword module without a database: an engine made of plain maps feeds KeywordRanker
// through the KeywordSource interface, and every ranking is checked against BM25 computed
// the plain way (every node, every phrase, in query order), to the last bit.
import { describe, expect, it } from 'vitest';
import { contribution, idf } from '../../../src/search/keyword/bm25.js';
import { KeywordRanker } from '../../../src/search/keyword/ranker.js';
import type { KeywordSource, NodeTerms, QueryRead, TermRead } from '../../../src/search/keyword/source.js';
import { packPostings, unpackSeqs } from '../../../src/search/keyword/postings.js';

/** An engine in memory: nodes per tenant with their weighted term frequencies and lengths, and a change log. */
class MemoryEngine implements KeywordSource {
  readonly docs = new Map<string, Map<number, NodeTerms>>();
  private readonly logs = new Map<string, { base: number; seqs: number[] }>();
  postingReads = 0;

  async indexedTerms(phrases: string[]) {
    return phrases.map((p) => [p.slice(1, -1)]);
  }

  private of(tenantId: string): Map<number, NodeTerms> {
    let m = this.docs.get(tenantId);
    if (!m) this.docs.set(tenantId, (m = new Map()));
    return m;
  }

  write(tenantId: string, seq: number, tf: Record<string, number> | null): void {
    if (tf) this.of(tenantId).set(seq, { seq, len: Object.values(tf).reduce((a, b) => a + b, 0), tf: new Map(Object.entries(tf)) });
    else this.of(tenantId).delete(seq);
    this.logs.get(tenantId)?.seqs.push(seq);
  }

  async lengths(tenantId: string) {
    const docs = [...this.of(tenantId).values()].sort((a, b) => a.seq - b.seq);
    return { seqs: docs.map((d) => d.seq), lens: docs.map((d) => d.len) };
  }

  async terms(tenantId: string, minDf: number) {
    const df = new Map<string, number>();
    for (const d of this.of(tenantId).values()) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    return [...df]
      .filter(([, n]) => n >= minDf)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([term, n]) => ({ term, df: n }));
  }

  async df(tenantId: string, terms: string[]) {
    const all = new Map((await this.terms(tenantId, 1)).map((c) => [c.term, c.df]));
    return terms.map((t) => all.get(t) ?? 0);
  }

  /** The terms of each read ahead (the warm-up's). */
  readonly background: string[][] = [];

  async read(tenantId: string, terms: string[], have: (string | null)[], o: { position?: number; background?: boolean } = {}): Promise<QueryRead> {
    if (o.background) this.background.push(terms);
    const docs = [...this.of(tenantId).values()].sort((a, b) => a.seq - b.seq);
    const postings = terms.map((t, i): TermRead | null => {
      if (have[i] !== null) return null;
      const hold = docs.filter((d) => d.tf.has(t));
      this.postingReads += hold.length;
      return { seqs: hold.map((d) => d.seq), wtf: hold.map((d) => d.tf.get(t)!) };
    });
    return { n: docs.length, totalLen: docs.reduce((a, d) => a + d.len, 0), versions: terms.map(() => ''), postings };
  }

  isolated(): boolean {
    return false;
  }

  watch(tenantId: string): number {
    let l = this.logs.get(tenantId);
    if (!l) this.logs.set(tenantId, (l = { base: 0, seqs: [] }));
    return l.base + l.seqs.length;
  }

  unwatch(tenantId: string): void {
    this.logs.delete(tenantId);
  }

  changes(tenantId: string, from: number) {
    const l = this.logs.get(tenantId);
    if (!l) return { seqs: [], next: from };
    return { seqs: l.seqs.slice(Math.max(0, from - l.base)), next: l.base + l.seqs.length };
  }

  async nodes(tenantId: string, seqs: number[]) {
    return seqs.flatMap((s) => this.of(tenantId).get(s) ?? []);
  }

  async termVectors(tenantId: string, seqs: number[]) {
    return await this.nodes(tenantId, seqs);
  }

  /** BM25 the plain way: every node, each phrase in order, ties by seq; with the total and df. */
  async reference(tenantId: string, terms: string[], k: number, only?: (seq: number) => boolean) {
    const docs = [...this.of(tenantId).values()];
    const n = docs.length;
    const avgdl = docs.reduce((a, d) => a + d.len, 0) / n;
    const df = terms.map((t) => docs.filter((d) => d.tf.has(t)).length);
    const scored = docs
      .filter((d) => terms.some((t) => d.tf.has(t)) && (!only || only(d.seq)))
      .map((d) => {
        let s = 0;
        terms.forEach((t, i) => {
          const f = d.tf.get(t);
          if (f !== undefined) s += contribution(idf(n, df[i]), f, d.len, avgdl);
        });
        return { seq: d.seq, score: s };
      })
      .sort((a, b) => b.score - a.score || a.seq - b.seq);
    return { hits: scored.slice(0, k), total: scored.length, stats: { n, df } };
  }
}

let r = 7;
const rand = () => (r = (r * 1103515245 + 12345) % 2147483648) / 2147483648;
/** A note: "common" nearly everywhere, "shared" in most, w0..w299 Zipf-ish; weights 4/2/1/3 as the fields give. */
function note(): Record<string, number> {
  const tf: Record<string, number> = {};
  const add = (t: string) => (tf[t] = (tf[t] ?? 0) + [4, 2, 1, 1, 1, 3][Math.floor(rand() * 6)]);
  if (rand() < 0.95) add('common');
  if (rand() < 0.6) add('shared');
  for (let i = 0, m = 3 + Math.floor(rand() * 40); i < m; i++) add(`w${Math.floor(300 * rand() * rand())}`);
  return tf;
}

function seed(e: MemoryEngine, tenantId: string, n: number, seqs: () => number): void {
  for (let i = 0; i < n; i++) e.write(tenantId, seqs(), note());
}

const QUERIES = [['common'], ['shared', 'common'], ['w1', 'common'], ['w250', 'w251', 'shared', 'common'], ['w3', 'w3'], ['w280'], ['nothing'], ['w2', 'nothing', 'w7'], ['common', 'w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8']];

async function expectSame(e: MemoryEngine, ranker: KeywordRanker, tenantId: string, label: string): Promise<void> {
  for (const k of [1, 10, 200, 5000]) {
    for (const q of QUERIES) {
      const got = await ranker.top(tenantId, q, k);
      const want = await e.reference(tenantId, q, k);
      expect(got, `${label}: ${q.join(' ')} @${k}`).toEqual(want);
    }
  }
}

describe('keyword ranking from kept postings (no database)', () => {
  it('ranks, scores, counts and reports df exactly as BM25 over every node, bit for bit', async () => {
    const e = new MemoryEngine();
    let s = 0;
    seed(e, 'a', 1500, () => (s += 1 + Math.floor(rand() * 3)));
    const ranker = new KeywordRanker(e);
    await expectSame(e, ranker, 'a', 'cold');
    await ranker.warm('a', 1);
    await expectSame(e, ranker, 'a', 'warm');
  });

  it('cuts the walk once the terms left cannot reach the page, with the same answer', async () => {
    const e = new MemoryEngine();
    let s = 0;
    seed(e, 'a', 3000, () => ++s);
    const ranker = new KeywordRanker(e);
    const q = ['w60', 'w61', 'shared', 'common'];
    expect(await ranker.top('a', q, 5)).toEqual(await e.reference('a', q, 5));
    expect((ranker as unknown as { walk: { cutPhrases: number } }).walk.cutPhrases).toBe(2);
    expect(await ranker.top('a', q, 3000)).toEqual(await e.reference('a', q, 3000));
    expect((ranker as unknown as { walk: { cutPhrases: number } }).walk.cutPhrases).toBe(0);
  });

  it('under a filter, hands it the matching nodes and ranks and counts only those it keeps, bit for bit', async () => {
    const e = new MemoryEngine();
    let s = 0;
    seed(e, 'a', 3000, () => (s += 1 + Math.floor(rand() * 2)));
    const ranker = new KeywordRanker(e);
    await ranker.warm('a', 1);
    // nodes changed after the read (taken in from the log) are filtered like the rest
    for (let i = 0; i < 60; i++) e.write('a', 1 + Math.floor(rand() * s), rand() < 0.3 ? null : note());
    for (const keep of [(q: number) => q % 7 === 0, (q: number) => q % 2 === 1, () => false]) {
      for (const k of [1, 10, 5000]) {
        for (const q of QUERIES) {
          let handed: number[] = [];
          const got = await ranker.top('a', q, k, null, async (m) => ((handed = m), m.filter(keep)));
          expect(got, `${q.join(' ')} @${k}`).toEqual(await e.reference('a', q, k, keep));
          // every node matching any term, ascending, each once
          const matching = [...e.docs.get('a')!.values()].filter((d) => q.some((t) => d.tf.has(t))).map((d) => d.seq).sort((x, y) => x - y);
          if (matching.length) expect(handed).toEqual(matching);
        }
      }
    }
  });

  it('takes in inserts, updates and deletes after the read without reading postings again', async () => {
    const e = new MemoryEngine();
    let s = 100;
    seed(e, 'a', 1200, () => (s += 2));
    const ranker = new KeywordRanker(e);
    await ranker.warm('a', 1);
    const reads = e.postingReads;
    const kept = new Set((await e.terms('a', 1)).map((c) => c.term));
    // new nodes past the last seq, one below the first, updates (terms gained and lost), deletes
    seed(e, 'a', 50, () => (s += 1));
    e.write('a', 3, { w280: 4, common: 1 });
    for (let i = 0; i < 40; i++) e.write('a', 102 + 2 * Math.floor(rand() * 1200), rand() < 0.5 ? null : note());
    e.write('a', 104, { w281: 9 });
    e.write('a', 104, { w282: 2, shared: 1 }); // twice: the last one counts
    await expectSame(e, ranker, 'a', 'after writes');
    // only terms that were in no node at the read are read now
    const unkept = [...new Set(QUERIES.flat())].filter((t) => !kept.has(t));
    expect(e.postingReads - reads).toBe(unkept.reduce((a, t) => a + [...e.docs.get('a')!.values()].filter((d) => d.tf.has(t)).length, 0));
    // a term read after the writes sees them in its postings, not twice
    const fresh = new KeywordRanker(e);
    await fresh.top('a', ['w1'], 10);
    e.write('a', s + 1, { w1: 1, w2: 4 });
    await ranker.top('a', ['w9'], 10);
    await expectSame(e, ranker, 'a', 'term read after writes');
    await expectSame(e, fresh, 'a', 'fresh ranker');
  });

  it('keeps tenants apart, evicts a whole tenant and loads it again on its next query', async () => {
    const e = new MemoryEngine();
    let s = 0;
    // interleaved seqs, as tenants share one sequence
    for (let i = 0; i < 800; i++) for (const tenant of ['a', 'b']) e.write(tenant, ++s, note());
    e.write('b', ++s, { w1: 40 });
    const ranker = new KeywordRanker(e);
    await expectSame(e, ranker, 'a', 'a');
    await expectSame(e, ranker, 'b', 'b');
    expect(ranker.cache.bytesOf('a')).toBeGreaterThan(0);
    expect(ranker.cache.lastUsed('a')).toBeGreaterThan(0);
    const freed = ranker.evictTenant('a');
    expect(freed).toBeGreaterThan(0);
    expect(ranker.cache.bytesOf('a')).toBe(0);
    expect(ranker.cache.tenantIds()).toEqual(['b']);
    e.write('a', ++s, { w1: 1 });
    await expectSame(e, ranker, 'a', 'a reloaded');
  });

  it('holds to its memory cap, dropping least recently used terms and reading them again when asked', async () => {
    const e = new MemoryEngine();
    let s = 0;
    seed(e, 'a', 2000, () => ++s);
    const ranker = new KeywordRanker(e);
    await ranker.warm('a', 1);
    const all = ranker.cache.bytes();
    ranker.cache.capBytes = Math.floor(all / 3);
    await ranker.top('a', ['common'], 10);
    expect(ranker.cache.bytes()).toBeLessThanOrEqual(ranker.cache.capBytes);
    expect(ranker.cache.get('a')!.has('common')).toBe(true);
    await expectSame(e, ranker, 'a', 'under a cap');
    expect(ranker.cache.bytes()).toBeLessThanOrEqual(ranker.cache.capBytes);
  });

  it('warms the most held terms up to its memory cap, and the cap drops the least held of them first', async () => {
    const e = new MemoryEngine();
    let s = 0;
    seed(e, 'a', 2000, () => ++s);
    const whole = new KeywordRanker(e);
    const all = await whole.warm('a', 1);
    const ranker = new KeywordRanker(e);
    ranker.cache.capBytes = Math.floor(whole.cache.bytes() * 0.6);
    const read = await ranker.warm('a', 1);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(all);
    expect(ranker.cache.bytes()).toBeLessThanOrEqual(ranker.cache.capBytes);
    const order = (await e.terms('a', 1)).map((c) => c.term); // most held first
    const t = ranker.cache.get('a')!;
    expect(order.slice(0, read).every((term) => t.has(term))).toBe(true);
    expect(order.slice(read).some((term) => t.has(term))).toBe(false);
    expect(t.oldestTerm()).toBe(order[read - 1]);
    await expectSame(e, ranker, 'a', 'warmed to the cap');
    expect(ranker.cache.bytes()).toBeLessThanOrEqual(ranker.cache.capBytes);
    expect(t.has('common')).toBe(true);
  });

  it('warms in batches of a bounded number of postings, a term holding more alone', async () => {
    const e = new MemoryEngine();
    let s = 0;
    seed(e, 'a', 2000, () => ++s);
    const ranker = new KeywordRanker(e);
    ranker.warmPostings = 1500;
    const read = await ranker.warm('a', 1);
    const df = new Map((await e.terms('a', 1)).map((c) => [c.term, c.df]));
    expect(e.background.flat()).toHaveLength(read);
    expect(e.background[0]).toEqual(['common']); // held by ~1,900 notes: alone
    for (const batch of e.background) {
      expect(batch.length).toBeLessThanOrEqual(32);
      if (batch.length > 1) expect(batch.reduce((n, term) => n + df.get(term)!, 0)).toBeLessThanOrEqual(1500);
    }
    expect(e.background.length).toBeGreaterThan(Math.ceil(read / 32));
    await expectSame(e, ranker, 'a', 'warmed in small batches');
  });

  it('packs postings as 16-bit gaps when they fit and as seqs when not', () => {
    const a = packPostings([3, 9, 70_000], [1, 4, 7]);
    expect(a.gaps).toBeNull();
    expect([...unpackSeqs(a)]).toEqual([3, 9, 70_000]);
    const b = packPostings([3, 9, 60_000], [1, 2.5, 7]);
    expect(b.gaps).not.toBeNull();
    expect([...unpackSeqs(b)]).toEqual([3, 9, 60_000]);
    expect(b.wtf).toBeInstanceOf(Float32Array);
    expect(b.maxWtf).toBe(7);
  });
});

/**
 * An engine whose change log is in the database (PostgreSQL's form): the process records
 * nothing (changes() is empty), each read hands the nodes changed since the position asked,
 * as they are now; it can tell the ranker to forget what it holds (`reset`) and can be inside
 * a transaction (`isolated`).
 */
class LoggedEngine extends MemoryEngine {
  private readonly log = new Map<string, number[]>();
  resetNext = false;
  inTx = false;

  override write(tenantId: string, seq: number, tf: Record<string, number> | null): void {
    super.write(tenantId, seq, tf);
    const l = this.log.get(tenantId) ?? [];
    l.push(seq);
    this.log.set(tenantId, l);
  }

  override watch(tenantId: string): number {
    return this.log.get(tenantId)?.length ?? 0;
  }

  override async lengths() {
    return { seqs: [], lens: [] };
  }

  override changes(_tenantId: string, from: number) {
    return { seqs: [], next: from };
  }

  override isolated(): boolean {
    return this.inTx;
  }

  override async read(tenantId: string, terms: string[], have: (string | null)[], o?: { position?: number; background?: boolean }): Promise<QueryRead> {
    const reset = this.resetNext;
    this.resetNext = false;
    const r = await super.read(tenantId, terms, reset ? have.map(() => null) : have, o);
    // lengths come with the postings, as PostgreSQL hands them
    const docs = this.docs.get(tenantId)!;
    for (const p of r.postings) if (p) p.lens = Array.from(p.seqs, (seq) => docs.get(seq)!.len);
    const l = this.log.get(tenantId) ?? [];
    // a reset hands no changes (the log they were in is gone)
    const seqs = reset ? [] : [...new Set(l.slice(o?.position ?? l.length))];
    const nodes = seqs.map((seq) => {
      const d = docs.get(seq);
      return { seq, len: d?.len ?? null, tf: d?.tf ?? null };
    });
    return { ...r, ...(reset ? { reset } : {}), changed: { next: l.length, nodes } };
  }
}

describe('keyword ranking when the engine hands the changes with each read (no database)', () => {
  it('takes in changes handed with a read, reading postings only for terms not held', async () => {
    const e = new LoggedEngine();
    let s = 0;
    seed(e, 'a', 1500, () => (s += 1 + Math.floor(rand() * 2)));
    const ranker = new KeywordRanker(e);
    await ranker.warm('a', 1);
    const kept = new Set((await e.terms('a', 1)).map((c) => c.term));
    const reads = e.postingReads;
    seed(e, 'a', 40, () => ++s);
    for (let i = 0; i < 40; i++) e.write('a', 1 + Math.floor(rand() * s), rand() < 0.4 ? null : note());
    e.write('a', 2, { w281: 6, common: 1 });
    await expectSame(e, ranker, 'a', 'changes handed with reads');
    const unkept = [...new Set(QUERIES.flat())].filter((t) => !kept.has(t));
    expect(e.postingReads - reads).toBe(unkept.reduce((a, t) => a + [...e.docs.get('a')!.values()].filter((d) => d.tf.has(t)).length, 0));
  });

  it('forgets what it holds when a read says reset, and ranks from the postings read then', async () => {
    const e = new LoggedEngine();
    let s = 0;
    seed(e, 'a', 1200, () => ++s);
    const ranker = new KeywordRanker(e);
    await ranker.top('a', ['w9'], 10);
    await ranker.top('a', ['w1'], 10);
    // writes the engine can no longer hand (its log was trimmed): only a reset brings them in
    e.write('a', 5, { w1: 30 });
    e.write('a', ++s, { w9: 12 });
    e.resetNext = true;
    const before = e.postingReads;
    expect(await ranker.top('a', ['w1'], 10)).toEqual(await e.reference('a', ['w1'], 10));
    expect(e.postingReads).toBeGreaterThan(before);
    expect(ranker.cache.get('a')!.has('w9')).toBe(false);
    expect(await ranker.top('a', ['w9'], 10)).toEqual(await e.reference('a', ['w9'], 10));
  });

  it('inside a transaction reads into an index of its own and leaves what is kept untouched', async () => {
    const e = new LoggedEngine();
    let s = 0;
    seed(e, 'a', 1000, () => ++s);
    const ranker = new KeywordRanker(e);
    await ranker.top('a', ['common'], 10);
    const bytes = ranker.cache.bytes();
    e.inTx = true;
    e.write('a', ++s, { w2: 50, common: 1 });
    expect(await ranker.top('a', ['w2', 'common'], 10)).toEqual(await e.reference('a', ['w2', 'common'], 10));
    expect(ranker.cache.get('a')!.has('w2')).toBe(false);
    expect(ranker.cache.bytes()).toBe(bytes);
    // the write rolls back: what is kept never saw it
    e.write('a', s, null);
    e.inTx = false;
    expect(await ranker.top('a', ['w2', 'common'], 10)).toEqual(await e.reference('a', ['w2', 'common'], 10));
  });
});

describe('pseudo-relevance feedback on the kept postings', () => {
  const build = () => {
    const e = new MemoryEngine();
    // "graph" notes: 5 that also say "vertex" and "edg" often (the first pass's best), then 10
    // with "graph" once and a word of their own, then 10 with "graph" once and "vertex"/"edg"
    // (level with the previous 10 on the first pass, after them by seq); notes with
    // "vertex"/"edg" but no "graph"; and others.
    let seq = 0;
    for (let i = 0; i < 5; i++) e.write('t', ++seq, { graph: 3, vertex: 2, edg: 2, filler: 1 });
    for (let i = 0; i < 10; i++) e.write('t', ++seq, { graph: 1, filler: 1, [`n${i}`]: 4 });
    for (let i = 0; i < 10; i++) e.write('t', ++seq, { graph: 1, vertex: 2, edg: 2, filler: 1 });
    for (let i = 0; i < 20; i++) e.write('t', ++seq, { vertex: 4, edg: 4, filler: 1 });
    for (let i = 0; i < 60; i++) e.write('t', ++seq, { other: 3, filler: 1, [`w${i}`]: 1 });
    for (const d of e.docs.get('t')!.values()) for (const [t, f] of d.tf) if (f === 0) d.tf.delete(t);
    return e;
  };

  for (const method of ['rm3', 'bo1'] as const) {
    it(`${method}: re-orders the first pass's hits by the expansion, adds none, and is deterministic`, async () => {
      const e = build();
      const ranker = new KeywordRanker(e);
      const plain = await ranker.top('t', ['graph'], 100);
      const f = { method, docs: 5, terms: 5, originalWeight: 0.5, minTerms: 0 };
      const fed = await ranker.top('t', ['graph'], 100, f);
      expect(fed.expansion?.map((x) => x.term)).toEqual(expect.arrayContaining(['vertex', 'edg']));
      // Same members (every one holds "graph"), a different order; total and stats unchanged.
      expect(new Set(fed.hits.map((h) => h.seq))).toEqual(new Set(plain.hits.map((h) => h.seq)));
      for (const h of fed.hits) expect(e.docs.get('t')!.get(h.seq)!.tf.has('graph')).toBe(true);
      expect(fed.hits.map((h) => h.seq)).not.toEqual(plain.hits.map((h) => h.seq));
      expect([fed.total, fed.stats]).toEqual([plain.total, plain.stats]);
      // The nodes holding the expansion terms rise among the graph notes.
      const top15 = fed.hits.slice(0, 15).map((h) => e.docs.get('t')!.get(h.seq)!);
      expect(top15.every((d) => d.tf.has('vertex') && d.tf.has('edg'))).toBe(true);
      expect(plain.hits.slice(5, 15).every((h) => !e.docs.get('t')!.get(h.seq)!.tf.has('vertex'))).toBe(true);
      expect(await new KeywordRanker(e).top('t', ['graph'], 100, f)).toEqual(fed);
    });
  }

  it('off, nothing to learn from, or a query shorter than minTerms is the first pass exactly', async () => {
    const e = build();
    const ranker = new KeywordRanker(e);
    const plain = await ranker.top('t', ['other'], 100);
    expect(await ranker.top('t', ['other'], 100, null)).toEqual(plain);
    expect((await ranker.top('t', ['nothing'], 100, { method: 'rm3', docs: 5, terms: 5, originalWeight: 0.5, minTerms: 0 })).hits).toEqual([]);
    // A query shorter than minTerms: the first pass as it is.
    const graph = await ranker.top('t', ['graph'], 100);
    expect(await ranker.top('t', ['graph'], 100, { method: 'rm3', docs: 5, terms: 5, originalWeight: 0.5, minTerms: 2 })).toEqual(graph);
    expect((await ranker.top('t', ['graph', 'graph'], 100, { method: 'rm3', docs: 5, terms: 5, originalWeight: 0.5, minTerms: 2 })).expansion).toBeDefined();
  });
});
