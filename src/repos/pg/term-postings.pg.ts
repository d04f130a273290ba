// Kept postings on PostgreSQL: each process keeps, per tenant and term, the nodes holding
// the term with their weighted frequency and length, and ranks an unfiltered keyword query
// in JavaScript from them (the exact top-k of term-impacts.ts over each term's BM25
// contributions) instead of scoring every match in SQL. Reading a posting from the
// database costs a GIN lookup, a heap fetch and a de-TOAST of the node's `tf` map (~5 µs);
// a kept one costs nothing.
//
// Coherent across processes without messages: every query runs ONE statement that reads
// the tenant's N and total length and, for each query term, its `keyword_terms` row —
// df and the row's xmin, the id of the transaction that last wrote it. The keyword trigger
// (PostgreSQL step 2) rewrites that row whenever any node holding the term (before or
// after the write) is inserted, updated or deleted, in whichever process: so a term's
// postings are unchanged exactly as long as its row's xmin is. A kept entry whose xmin
// differs is read again by that same statement (one snapshot: the postings and the
// version they carry agree). Inside an open transaction the caller does not use this path
// (its own uncommitted writes share one xmin).
//
// Memory: 16 B a posting, plus 12 B for the contributions of a term's list once ranked;
// least recently used terms go beyond the budget (impactBudget, as SQLite's kept impacts).
import type { PgStore } from '../../db/store/pg-store.js';
import { contributions, postingsBytes, scoresOf, type TermPostings } from '../../search/pg/postings-score.js';
import { anyOfTsquery } from '../../search/lexemes.js';
import { impactBytes, topKWithImpacts, type ScoredSeq, type TermImpacts } from '../../search/term-impacts.js';
import { commonTermFloor } from '../search.repo.js';
import { impactBudget } from '../term-impacts.repo.js';

type Queryable = Pick<PgStore, 'query'>;

interface Entry {
  /** keyword_terms.xmin when the postings were read. */
  version: string;
  df: number;
  postings: TermPostings;
  /** Contributions under the tenant statistics `key` (N and total length) they were computed for. */
  ranked?: { key: string; impacts: TermImpacts };
}

/**
 * One round trip a query: statistics and each term's version always, a term's postings
 * only when the kept ones are missing or stale (`have`: the kept version, '' for none).
 * The lateral read runs for a term only when its version differs (a one-time filter).
 */
const READ_SQL = `
WITH s AS (SELECT docs, total_len FROM keyword_stats WHERE tenant_id = $1)
SELECT t.i, coalesce((SELECT docs FROM s), 0) AS docs, coalesce((SELECT total_len FROM s), 0) AS total_len,
       coalesce(k.df, 0) AS df, CAST(k.xmin AS text) AS version,
       coalesce(CAST(k.xmin AS text) <> t.have, false) AS fetched, p.seqs, p.tfs, p.lens
FROM unnest($2::text[], $3::tsquery[], $4::text[]) WITH ORDINALITY AS t(term, tsq, have, i)
LEFT JOIN keyword_terms k ON k.tenant_id = $1 AND k.term = t.term
LEFT JOIN LATERAL (
  SELECT array_agg(CAST(d.seq AS float8) ORDER BY d.seq) AS seqs,
         array_agg(CAST(d.tf ->> t.term AS float8) ORDER BY d.seq) AS tfs,
         array_agg(d.len ORDER BY d.seq) AS lens
  FROM node_keywords d
  WHERE CAST(k.xmin AS text) <> t.have AND d.tenant_id = $1 AND d.terms @@ t.tsq
) p ON true
ORDER BY t.i`;

interface ReadRow {
  docs: number | string;
  total_len: number | string;
  df: number | string;
  version: string | null;
  fetched: boolean;
  seqs: number[] | null;
  tfs: number[] | null;
  lens: number[] | null;
}

/** The tenant's statistics and each lexeme's df as one query read them. */
export interface ReadStats {
  n: number;
  totalLen: number;
  df: number[];
}

const INT32_MAX = 2 ** 31 - 1;

/** What a term's walkable list adds to its postings (the seqs are shared). */
const rankedBytes = (e: Entry) => (e.ranked ? impactBytes(e.ranked.impacts) - e.postings.seqs.byteLength : 0);

export class PgTermPostings {
  private readonly cache = new Map<string, Entry>();
  private bytes = 0;
  private largest = 0;
  /** Postings read from the database (not kept), for tests and the bench. */
  reads = 0;
  /** From how many matches a term's list is walked best first rather than summed (tests lower it). */
  commonFloor: (n: number) => number = commonTermFloor;

  constructor(private readonly db: Queryable) {}

  /**
   * The best `limit` of the tenant's nodes for these lexemes (not deduplicated: a repeated
   * lexeme counts twice, as in the statement), best first, with how many nodes match any
   * of them and the statistics read. Null when a seq does not fit the kept arrays (the
   * caller ranks in SQL).
   */
  async top(tenantId: string, lexemes: string[], limit: number): Promise<{ hits: ScoredSeq[]; total: number; stats: ReadStats } | null> {
    const distinct = [...new Set(lexemes)];
    const keyOf = (l: string) => `${tenantId}\u0000${l}`;
    const have = distinct.map((l) => this.cache.get(keyOf(l))?.version ?? '');
    const rows = (await this.db.query<ReadRow>(READ_SQL, [tenantId, distinct, distinct.map((l) => anyOfTsquery([l])), have])).rows;
    if (rows.length === 0) return { hits: [], total: 0, stats: { n: 0, totalLen: 0, df: lexemes.map(() => 0) } };
    const n = Number(rows[0].docs);
    const totalLen = Number(rows[0].total_len);
    this.largest = Math.max(this.largest, n);
    const statsKey = `${n}:${totalLen}`;
    const entries = new Map<string, Entry>();
    const dfOf = new Map<string, number>();
    for (const [i, r] of rows.entries()) {
      const l = distinct[i];
      const df = Number(r.df);
      dfOf.set(l, df);
      if (r.version === null || df === 0) {
        this.drop(keyOf(l));
        continue;
      }
      let e = this.cache.get(keyOf(l));
      if (r.fetched) {
        const seqs = r.seqs ?? [];
        if (seqs.length && seqs[seqs.length - 1] > INT32_MAX) return null;
        this.reads += seqs.length;
        e = { version: r.version, df, postings: { seqs: Int32Array.from(seqs), tf: Float64Array.from(r.tfs ?? []), len: Int32Array.from(r.lens ?? []) } };
        this.put(keyOf(l), e);
      } else if (e) {
        this.touch(keyOf(l), e);
      } else {
        return null; // evicted between building `have` and now: cannot happen synchronously
      }
      entries.set(l, e);
    }
    // As SQLite's route does: the rare terms' matches are summed outright, the common terms'
    // lists are walked best first (threshold algorithm) and stop early. Walking a dozen
    // mid-sized lists that way costs more than summing them (a long question: 30 → 5 ms).
    // A common list's order is kept until the tenant's N or total length change.
    const floor = this.commonFloor(n);
    const rare = new Map<number, number>();
    const common: TermImpacts[] = [];
    for (const l of lexemes) {
      const e = entries.get(l);
      if (!e) continue;
      if (e.df < floor) {
        const scores = scoresOf(e.postings, n, totalLen, e.df);
        const seqs = e.postings.seqs;
        for (let i = 0; i < seqs.length; i++) rare.set(seqs[i], (rare.get(seqs[i]) ?? 0) + scores[i]);
        continue;
      }
      if (e.ranked?.key !== statsKey) {
        if (e.ranked) this.bytes -= rankedBytes(e);
        e.ranked = { key: statsKey, impacts: contributions(e.postings, n, totalLen, e.df) };
        this.bytes += rankedBytes(e);
      }
      common.push(e.ranked.impacts);
    }
    const { hits, total } = topKWithImpacts(Array.from(rare, ([seq, score]) => ({ seq, score })), common, limit);
    this.evict();
    return { hits, total, stats: { n, totalLen, df: lexemes.map((l) => dfOf.get(l) ?? 0) } };
  }

  /** Bytes the kept postings and contributions hold. */
  heldBytes(): number {
    return this.bytes;
  }

  /** Terms kept. */
  get size(): number {
    return this.cache.size;
  }

  private put(key: string, e: Entry): void {
    this.drop(key);
    this.cache.set(key, e);
    this.bytes += postingsBytes(e.postings);
  }

  private touch(key: string, e: Entry): void {
    this.cache.delete(key);
    this.cache.set(key, e);
  }

  private drop(key: string): void {
    const old = this.cache.get(key);
    if (!old) return;
    this.cache.delete(key);
    this.bytes -= postingsBytes(old.postings);
    if (old.ranked) this.bytes -= rankedBytes(old);
  }

  /** Least recently used first, down to the budget (the entries this query used are the newest). */
  private evict(): void {
    const budget = impactBudget(this.largest);
    for (const k of this.cache.keys()) {
      if (this.bytes <= budget) break;
      this.drop(k);
    }
  }
}
