// Where a keyword query is ranked, on both engines: the query's terms are read from the
// tenant's kept index (postings-cache.ts), any term not kept is read once from the engine
// (KeywordSource), the nodes changed since are taken in, and the exact top k is walked in
// memory with FTS5's BM25 (top-k.ts). The engine is only read, never asked to score.
import { idf } from './bm25.js';
import { DocLengths } from './lengths.js';
import { PostingsCache } from './postings-cache.js';
import { packPostings } from './postings.js';
import type { KeywordSource } from './source.js';
import { TenantPostings } from './tenant-postings.js';
import { type ScoredSeq, Walk, type WalkPhrase } from './top-k.js';

export interface RankedKeywords {
  hits: ScoredSeq[];
  /** Nodes matching any term. */
  total: number;
  /** N and each term's df as the ranking read them (the absolute score's normalisation). */
  stats: { n: number; df: number[] };
}

/** Work per event-loop turn while warming (ms): one term's read is the longest step (~0.1–0.3 s for a term in every one of 100k notes). */
export const SLICE_MS = 8;

/** Changed nodes a tenant's kept index takes in before it should be read again (stale(); each costs a little every query). */
export const CHANGED_MAX = 2048;
/** ...or this share of its nodes. */
export const CHANGED_SHARE = 0.05;

export class KeywordRanker {
  readonly cache = new PostingsCache();
  private readonly walk = new Walk();
  private readonly loading = new Map<string, Promise<TenantPostings>>();
  private readonly warming = new Map<string, Promise<number>>();
  /** Postings read from the engine (tests, the bench). */
  reads = 0;
  /** Changed nodes taken in before stale() (tests lower it). */
  changedMax = CHANGED_MAX;

  constructor(private readonly source: KeywordSource) {}

  /**
   * The best `k` of the tenant's nodes for these terms (the query's phrases in order; a
   * term twice counts twice, as two FTS5 phrases do), best first.
   */
  async top(tenantId: string, terms: string[], k: number): Promise<RankedKeywords> {
    const t = await this.tenant(tenantId);
    t.lastUsed = Date.now();
    await this.sync(tenantId, t);
    const distinct = [...new Set(terms)];
    const { n, totalLen, nodes } = await this.read(tenantId, t, distinct);
    await this.sync(tenantId, t);
    const views = terms.map((term) => (t.use(term), t.view(term)));
    const df = views.map((v) => v?.df ?? 0);
    const result: RankedKeywords = { hits: [], total: 0, stats: { n: nodes ?? n, df } };
    if (n > 0) {
      const avgdl = totalLen / n;
      const phrases: WalkPhrase[] = [];
      for (const v of views) if (v && v.df > 0) phrases.push({ view: v, idf: idf(n, v.df) });
      Object.assign(result, this.walk.top(phrases, t.lengths, avgdl, k));
    }
    this.cache.trim(new Set(terms));
    return result;
  }

  /**
   * Reads ahead the tenant's terms held by at least `minDf` nodes, one term at a time,
   * awaiting `pause()` (false: stop) once a slice has run `sliceMs`; a warm of the tenant
   * already under way is joined, not repeated. Resolves with how many terms it read.
   */
  warm(tenantId: string, minDf: number, pause: () => Promise<boolean> = async () => true, sliceMs = SLICE_MS): Promise<number> {
    let w = this.warming.get(tenantId);
    if (!w) {
      w = (async () => {
        try {
          const t = await this.tenant(tenantId);
          const terms = (await this.source.terms(tenantId, minDf)).filter((term) => !t.has(term));
          let slice = performance.now();
          for (const [i, term] of terms.entries()) {
            if (performance.now() - slice > sliceMs) {
              if (!(await pause())) return i;
              slice = performance.now();
            }
            if (this.cache.get(tenantId) !== t) return i; // evicted meanwhile
            if (!t.has(term)) await this.read(tenantId, t, [term]);
          }
          return terms.length;
        } finally {
          this.warming.delete(tenantId);
        }
      })();
      this.warming.set(tenantId, w);
    }
    return w;
  }

  /** Whether the tenant's kept index has taken in enough changes to be read again (the warmer does). */
  stale(tenantId: string): boolean {
    const t = this.cache.get(tenantId);
    return t !== undefined && t.changed.size > Math.max(this.changedMax, CHANGED_SHARE * t.lengths.lens.length);
  }

  /** Forgets a tenant's kept index (and stops its change log); the bytes freed. */
  evictTenant(tenantId: string): number {
    if (!this.cache.get(tenantId)) return 0;
    this.source.unwatch(tenantId);
    return this.cache.evictTenant(tenantId);
  }

  /** One read: statistics, versions, and the postings of the terms not held current (kept at the log position before the read). */
  private async read(tenantId: string, t: TenantPostings, terms: string[]): Promise<{ n: number; totalLen: number; nodes?: number }> {
    const from = t.position;
    const r = await this.source.read(tenantId, terms, terms.map((term) => t.version(term)));
    terms.forEach((term, i) => {
      const version = r.versions[i];
      const got = r.postings[i];
      if (version === null) t.drop(term);
      if (version === null || !got) return;
      this.reads += got.seqs.length;
      if (got.lens) for (let j = 0; j < got.seqs.length; j++) t.lengths.set(got.seqs[j], got.lens[j]);
      t.put(term, packPostings(got.seqs, got.wtf), from, version);
    });
    return r;
  }

  private async sync(tenantId: string, t: TenantPostings): Promise<void> {
    const { seqs, next } = this.source.changes(tenantId, t.position);
    if (next === t.position) return;
    const distinct = [...new Set(seqs)];
    t.apply(distinct, next, distinct.length ? await this.source.nodes(tenantId, distinct) : []);
  }

  private tenant(tenantId: string): Promise<TenantPostings> {
    const kept = this.cache.get(tenantId);
    if (kept) return Promise.resolve(kept);
    let p = this.loading.get(tenantId);
    if (!p) {
      p = (async () => {
        try {
          const position = this.source.watch(tenantId);
          const { seqs, lens } = await this.source.lengths(tenantId);
          const t = new TenantPostings(new DocLengths(seqs, lens), position);
          this.cache.set(tenantId, t, seqs.length);
          return t;
        } finally {
          this.loading.delete(tenantId);
        }
      })();
      this.loading.set(tenantId, p);
    }
    return p;
  }
}
