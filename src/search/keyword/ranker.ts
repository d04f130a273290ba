// Where a keyword query is ranked, on both engines: the query's terms are read from the
// tenant's kept index (postings-cache.ts), any term not kept is read once from the engine
// (KeywordSource), the nodes changed since are taken in, and the exact top k is walked in
// memory with FTS5's BM25 (top-k.ts). The engine is only read, never asked to score.
import { idf } from './bm25.js';
import { bo1Terms, candidateTerms, type ExpansionPostings, type FeedbackDoc, type FeedbackSettings, rescore, rm3Terms, type WeightedTerm } from './feedback.js';
import { DocLengths } from './lengths.js';
import { PostingsCache } from './postings-cache.js';
import { packPostings } from './postings.js';
import type { KeywordSource, NodeTerms } from './source.js';
import { forEachKept, type TermView, TenantPostings } from './tenant-postings.js';
import { type ScoredSeq, seqSet, Walk, type WalkPhrase } from './top-k.js';

export interface RankedKeywords {
  hits: ScoredSeq[];
  /** Nodes matching any term. */
  total: number;
  /** N and each term's df as the ranking read them (the absolute score's normalisation). */
  stats: { n: number; df: number[] };
  /** The expansion terms the second pass added (pseudo-relevance feedback), when it ran. */
  expansion?: WeightedTerm[];
}

/** Work per event-loop turn while warming (ms; the engine may read off the loop: SQLite's reader thread). */
export const SLICE_MS = 8;
/** Terms per read while warming (one round trip to SQLite's reader thread each; one term at a time cost 0.6 ms a term at 100k). */
const WARM_BATCH = 32;
/**
 * ...and postings per read (a term holding more is read alone): the main thread packs a
 * read's postings in one turn, ~11 ns each at 1M notes (32 of the most held terms at once
 * held the event loop 181 ms).
 */
export const WARM_POSTINGS = 500_000;
/** The share of the memory cap the warm-up fills (the rest: terms queries read). */
export const WARM_SHARE = 0.9;

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
  /** Postings per read while warming (tests lower it). */
  warmPostings = WARM_POSTINGS;

  constructor(private readonly source: KeywordSource) {}

  /**
   * The best `k` of the tenant's nodes for these terms (the query's phrases in order; a
   * term twice counts twice, as two FTS5 phrases do), best first. With `feedback`, those k
   * scored again with the expansion its feedback nodes give (feedback.ts): re-ordered, never
   * joined by a node holding none of the terms. With `only` (a filter), the nodes matching
   * any term are handed to it, and only those it keeps are ranked and counted.
   */
  async top(tenantId: string, terms: string[], k: number, feedback: FeedbackSettings | null = null, only?: (matching: number[]) => Promise<number[]>): Promise<RankedKeywords> {
    const { t, n, totalLen, nodes } = await this.current(tenantId, terms);
    const views = used(t, terms);
    const df = views.map((v) => v?.df ?? 0);
    const result: RankedKeywords = { hits: [], total: 0, stats: { n: nodes ?? n, df } };
    if (n > 0) {
      const avgdl = totalLen / n;
      const phrases: WalkPhrase[] = [];
      for (const v of views) if (v && v.df > 0) phrases.push({ view: v, idf: idf(n, v.df) });
      // The views are snapshots: a write taken in while the filter is read changes none of them.
      const allowed = only && phrases.length ? seqSet(await only(matching(phrases.map((ph) => ph.view)))) : null;
      Object.assign(result, this.walk.top(phrases, t.lengths, avgdl, k, allowed));
      if (feedback && terms.length >= feedback.minTerms && result.hits.length > 1) await this.feedback(tenantId, t, terms, result, feedback);
    }
    this.cache.trim(new Set(terms));
    return result;
  }

  /**
   * The nodes holding any of these terms, newest (largest seq) first, at most `k`; with
   * `only`, of those it keeps, asked a few pages at a time from the newest. Nothing is
   * ranked: for a term so common that ranking its nodes would say little.
   */
  async newest(tenantId: string, terms: string[], k: number, only?: (seqs: number[]) => Promise<number[]>): Promise<number[]> {
    const { t } = await this.current(tenantId, terms);
    const views = used(t, terms).filter((v): v is TermView => v !== null && v.df > 0);
    const all = matching(views);
    this.cache.trim(new Set(terms));
    const out: number[] = [];
    for (let end = all.length; end > 0 && out.length < k; end -= 4 * k) {
      const page = all.slice(Math.max(0, end - 4 * k), end).reverse();
      const kept = only ? new Set(await only(page)) : null;
      for (const s of page) if (out.length < k && (!kept || kept.has(s))) out.push(s);
    }
    return out;
  }

  /**
   * Each term's document frequency without reading postings: the kept index's where it
   * holds the term (every change taken in), else the engine's own statistics.
   */
  async counts(tenantId: string, terms: string[]): Promise<number[]> {
    const t = this.source.isolated() ? undefined : this.cache.get(tenantId);
    if (t) await this.readCurrent(tenantId, t, []);
    const missing = terms.filter((term) => !t?.has(term));
    const df = missing.length ? await this.source.df(tenantId, missing) : [];
    const engine = new Map(missing.map((term, i) => [term, df[i]]));
    return terms.map((term) => engine.get(term) ?? t?.view(term)?.df ?? 0);
  }

  /** N and each term's document frequency as top() would read them (nothing ranked). */
  async stats(tenantId: string, terms: string[]): Promise<{ n: number; df: number[] }> {
    const { t, n, nodes } = await this.current(tenantId, terms);
    const df = terms.map((term) => t.view(term)?.df ?? 0);
    this.cache.trim(new Set(terms));
    return { n: nodes ?? n, df };
  }

  /** The tenant's kept index with these terms read current and every change taken in. */
  private async current(tenantId: string, terms: string[]) {
    // Isolated: a throwaway index read whole for this query, nothing kept touched.
    const t = this.source.isolated() ? new TenantPostings(new DocLengths([], []), 0) : await this.tenant(tenantId);
    t.lastUsed = Date.now();
    return { t, ...(await this.readCurrent(tenantId, t, [...new Set(terms)])) };
  }

  /** Changes taken in, a read of these terms (none: statistics only, and on PostgreSQL the changes handed with it), changes taken in again. */
  private async readCurrent(tenantId: string, t: TenantPostings, terms: string[]) {
    await this.sync(tenantId, t);
    const r = await this.read(tenantId, t, terms);
    await this.sync(tenantId, t);
    return r;
  }

  /** The second pass: expansion terms from the best `docs` hits, every hit scored again (the order of `result.hits` changes, not its members). */
  private async feedback(tenantId: string, t: TenantPostings, terms: string[], result: RankedKeywords, f: FeedbackSettings): Promise<void> {
    const top = result.hits.slice(0, f.docs);
    const vectors = new Map((await this.source.termVectors(tenantId, top.map((h) => h.seq))).map((v) => [v.seq, v.tf]));
    const docs: FeedbackDoc[] = top.filter((h) => vectors.has(h.seq)).map((h) => ({ score: h.score, tf: vectors.get(h.seq)! }));
    if (docs.length === 0) return;
    let chosen: WeightedTerm[];
    if (f.method === 'rm3') chosen = rm3Terms(docs, f.terms);
    else {
      const candidates = candidateTerms(docs);
      const { n } = await this.read(tenantId, t, candidates);
      const cf = new Map(candidates.map((term) => [term, frequencies(t.view(term)).cf]));
      chosen = bo1Terms(docs, f.terms, n, (term) => cf.get(term) ?? 0, candidates);
    }
    if (chosen.length === 0) return;
    const { n, totalLen } = await this.read(tenantId, t, chosen.map((c) => c.term));
    await this.sync(tenantId, t);
    if (n <= 0) return;
    const want = new Set(result.hits.map((h) => h.seq));
    const expansion: ExpansionPostings[] = [];
    for (const c of chosen) {
      const v = t.view(c.term);
      if (!v || v.df === 0) continue;
      expansion.push({ weight: c.weight, idf: idf(n, v.df), tf: frequencies(v, want).tf });
    }
    result.hits = rescore(result.hits, expansion, f.originalWeight, terms.length, (seq) => t.lengths.get(seq), totalLen / n);
    result.expansion = chosen;
    this.cache.trim(new Set([...terms, ...chosen.map((c) => c.term)]));
  }

  /**
   * Reads ahead the tenant's terms held by at least `minDf` nodes, most held first, in
   * batches of up to WARM_BATCH terms and `warmPostings` postings, until the module holds
   * WARM_SHARE of its memory cap (past it a query would drop what was read), awaiting
   * `pause()` (false: stop) once a slice has run `sliceMs`; a warm of the tenant already
   * under way is joined, not repeated. The terms read are then ordered so the cap drops the
   * least held first (cheapest to read again). Resolves with how many terms it read.
   */
  warm(tenantId: string, minDf: number, pause: () => Promise<boolean> = async () => true, sliceMs = SLICE_MS): Promise<number> {
    let w = this.warming.get(tenantId);
    if (!w) {
      w = (async () => {
        const read: string[] = [];
        try {
          const t = await this.tenant(tenantId);
          const terms = (await this.source.terms(tenantId, minDf)).filter((c) => !t.has(c.term));
          let slice = performance.now();
          for (let i = 0, end = 0; i < terms.length && this.cache.bytes() < WARM_SHARE * this.cache.cap(); i = end) {
            if (performance.now() - slice > sliceMs) {
              if (!(await pause())) break;
              slice = performance.now();
            }
            if (this.cache.get(tenantId) !== t) break; // evicted meanwhile
            let postings = terms[i].df;
            for (end = i + 1; end < terms.length && end - i < WARM_BATCH && postings + terms[end].df <= this.warmPostings; end++) postings += terms[end].df;
            const batch = terms
              .slice(i, end)
              .map((c) => c.term)
              .filter((term) => !t.has(term));
            if (batch.length) await this.read(tenantId, t, batch, true);
            read.push(...batch);
          }
          for (let i = read.length - 1; i >= 0; i--) t.use(read[i]); // least held oldest
          return read.length;
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
  private async read(tenantId: string, t: TenantPostings, terms: string[], background = false): Promise<{ n: number; totalLen: number; nodes?: number }> {
    const from = t.position;
    const r = await this.source.read(tenantId, terms, terms.map((term) => t.version(term)), { background, position: from });
    if (r.reset) t.clear();
    terms.forEach((term, i) => {
      const version = r.versions[i];
      const got = r.postings[i];
      if (version === null) t.drop(term);
      if (version === null || !got) return;
      this.reads += got.seqs.length;
      if (got.lens) for (let j = 0; j < got.seqs.length; j++) t.lengths.set(got.seqs[j], got.lens[j]);
      t.put(term, packPostings(got.seqs, got.wtf), from, version);
    });
    if (r.changed) {
      const now = r.changed.nodes.filter((d) => d.tf !== null) as NodeTerms[];
      t.apply(r.changed.nodes.map((d) => d.seq), r.changed.next, now);
    }
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

/** Each term's view, the term marked as just used (the cap drops it last). */
function used(t: TenantPostings, terms: string[]): (TermView | null)[] {
  return terms.map((term) => (t.use(term), t.view(term)));
}

/** Every node holding any of these views' terms, ascending (marked in a bitmap over their span, then read out). */
function matching(views: TermView[]): number[] {
  let hi = -1;
  for (const v of views) hi = Math.max(hi, v.p.last, v.extraSeqs.length ? v.extraSeqs[v.extraSeqs.length - 1] : -1);
  const bits = new Uint8Array(hi + 1);
  let count = 0;
  const mark = (s: number) => {
    if (!bits[s]) (bits[s] = 1), count++;
  };
  for (const v of views) {
    forEachKept(v, mark);
    for (const s of v.extraSeqs) mark(s);
  }
  const out = new Array<number>(count);
  for (let s = 0, i = 0; i < count; s++) if (bits[s]) out[i++] = s;
  return out;
}

/** A term's frequency in the tenant (the sum of its weighted tf) and, for the nodes in `want`, its weighted tf there. */
function frequencies(v: TermView | null, want?: Set<number>): { cf: number; tf: Map<number, number> } {
  const tf = new Map<number, number>();
  let cf = 0;
  if (!v) return { cf, tf };
  forEachKept(v, (seq, wtf) => {
    cf += wtf;
    if (want?.has(seq)) tf.set(seq, wtf);
  });
  for (let e = 0; e < v.extraSeqs.length; e++) {
    cf += v.extraWtf[e];
    if (want?.has(v.extraSeqs[e])) tf.set(v.extraSeqs[e], v.extraWtf[e]);
  }
  return { cf, tf };
}
