// The keyword module's reads on PostgreSQL (search/keyword/source.ts), from the tables the
// keyword trigger keeps (PostgreSQL steps 2 and 20): N and the total length in
// keyword_stats, which terms exist in keyword_terms, a term's postings from node_keywords
// (a GIN lookup, each node's weighted tf and length), and the nodes changed since in
// keyword_changes, written by any process. One statement a query, in one snapshot: the
// statistics, the postings of the terms not held, and the nodes changed by transactions the
// tenant's last read could not see (pg_visible_in_snapshot against that read's snapshot),
// with their terms now. A change is taken in by the first read after its transaction
// commits, whatever order transactions commit in, and once: a long transaction holding the
// oldest running id back (a backup) does not make reads take the same changes again.
//
// Inside a transaction the module reads nothing kept (isolated()): the transaction sees its
// own writes, which must not reach what other requests read, and may roll back.
//
// The log is trimmed of rows written fifteen minutes ago whose transaction has ended (at
// most once a minute, by whichever process reads); a tenant not read for five minutes is
// read afresh (`reset`), since changes it has not taken in may be gone. Only a write
// transaction open for more than ten minutes could slip between the two: none is.
import type { PgStore } from '../../db/store/pg-store.js';
import { anyOfTsquery } from '../../search/lexemes.js';
import type { KeywordSource, NodeTerms, QueryRead, TermCount, TermRead } from '../../search/keyword/source.js';
import { phraseLexemes } from './keyword-index.pg.js';

/** A tenant not read for this long is read afresh (its changes may have been trimmed). */
export const FRESH_AFTER_MS = 5 * 60_000;
const TRIM_EVERY_MS = 60_000;
const TRIM_SQL = `DELETE FROM keyword_changes WHERE at < now() - interval '15 minutes' AND xid < pg_snapshot_xmin(pg_current_snapshot())`;

// $1 tenant, $2 the snapshot of the tenant's last read ('' on a first read: nothing to take in), then the terms: lexemes,
// their tsqueries, and which are held ('' not held).
const CHANGES = `
WITH s AS (SELECT docs, total_len FROM keyword_stats WHERE tenant_id = $1),
c AS (SELECT DISTINCT seq FROM keyword_changes
       WHERE $2 <> '' AND tenant_id = $1 AND xid >= pg_snapshot_xmin(CAST(NULLIF($2, '') AS pg_snapshot))
         AND NOT pg_visible_in_snapshot(xid, CAST(NULLIF($2, '') AS pg_snapshot))),
h AS (SELECT coalesce((SELECT docs FROM s), 0) AS docs, coalesce((SELECT total_len FROM s), 0) AS total_len,
        CAST(pg_snapshot_xmin(pg_current_snapshot()) AS text) AS next, CAST(pg_current_snapshot() AS text) AS snapshot,
        (SELECT json_agg(json_build_object('seq', c.seq, 'len', d.len, 'tf', d.tf)) FROM c LEFT JOIN node_keywords d ON d.seq = c.seq AND d.tenant_id = $1) AS changed)`;
const READ_SQL = `${CHANGES}
SELECT t.i, h.docs, h.total_len, h.next, h.snapshot, CASE WHEN t.i = 1 THEN h.changed END AS changed,
       k.term IS NOT NULL AS present, p.seqs, p.tfs, p.lens
FROM h CROSS JOIN unnest($3::text[], $4::tsquery[], $5::text[]) WITH ORDINALITY AS t(term, tsq, have, i)
LEFT JOIN keyword_terms k ON k.tenant_id = $1 AND k.term = t.term AND k.df > 0
LEFT JOIN LATERAL (
  SELECT array_agg(CAST(d.seq AS float8) ORDER BY d.seq) AS seqs,
         array_agg(CAST(d.tf ->> t.term AS float8) ORDER BY d.seq) AS tfs,
         array_agg(d.len ORDER BY d.seq) AS lens
  FROM node_keywords d
  WHERE t.have = '' AND k.term IS NOT NULL AND d.tenant_id = $1 AND d.terms @@ t.tsq
) p ON true
ORDER BY t.i`;
const STATS_SQL = `${CHANGES} SELECT h.docs, h.total_len, h.next, h.snapshot, h.changed FROM h`;

interface ReadRow {
  docs: number | string;
  total_len: number | string;
  next: string;
  snapshot: string;
  changed: { seq: number | string; len: number | null; tf: Record<string, number> | null }[] | null;
  present?: boolean;
  seqs?: number[] | null;
  tfs?: number[] | null;
  lens?: number[] | null;
}

/** Every held term's version: the change log says what changed, so a term is read once. */
const HELD = 'kept';

export class PgKeywordSource implements KeywordSource {
  /** Each tenant's last read by this process: when (ms), and its snapshot (what it saw). */
  private readonly lastRead = new Map<string, { at: number; snapshot: string }>();
  private lastTrim = 0;
  /** The trim under way, if any (tests wait for it). */
  trimming: Promise<void> = Promise.resolve();
  /** FRESH_AFTER_MS (tests lower it). */
  freshAfterMs = FRESH_AFTER_MS;

  constructor(private readonly db: PgStore) {}

  /** Lengths come with each term's postings (a node's length is read with the terms it holds). */
  async lengths(): Promise<{ seqs: number[]; lens: number[] }> {
    return { seqs: [], lens: [] };
  }

  async terms(tenantId: string, minDf: number): Promise<TermCount[]> {
    const r = await this.db.query<{ term: string; df: number | string }>('SELECT term, df FROM keyword_terms WHERE tenant_id = $1 AND df >= $2 ORDER BY df DESC, term', [tenantId, minDf]);
    return r.rows.map((row) => ({ term: row.term, df: Number(row.df) }));
  }

  async df(tenantId: string, terms: string[]): Promise<number[]> {
    const r = await this.db.query<{ term: string; df: number | string }>('SELECT term, df FROM keyword_terms WHERE tenant_id = $1 AND term = ANY($2::text[])', [tenantId, terms]);
    const byTerm = new Map(r.rows.map((row) => [row.term, Number(row.df)]));
    return terms.map((term) => byTerm.get(term) ?? 0);
  }

  isolated(): boolean {
    return this.db.inTransaction;
  }

  async read(tenantId: string, terms: string[], have: (string | null)[], o: { position?: number } = {}): Promise<QueryRead> {
    const now = Date.now();
    const last = this.lastRead.get(tenantId);
    const isolated = this.isolated();
    // Read afresh: not read for a while, or kept from a read this process does not know of.
    const reset = !isolated && ((last !== undefined && now - last.at > this.freshAfterMs) || (last === undefined && !!o.position));
    if (reset) have = have.map(() => null);
    const since = !isolated && !reset && o.position && last ? last.snapshot : '';
    const rows = terms.length
      ? (await this.db.query<ReadRow>(READ_SQL, [tenantId, since, terms, terms.map((l) => anyOfTsquery([l])), have.map((v) => (v === null ? '' : v))])).rows
      : (await this.db.query<ReadRow>(STATS_SQL, [tenantId, since])).rows;
    const first = rows[0];
    if (!isolated) this.lastRead.set(tenantId, { at: now, snapshot: first.snapshot });
    if (!isolated && now - this.lastTrim > TRIM_EVERY_MS) {
      this.lastTrim = now;
      // Off the query's path: a trim that fails is tried again a minute later.
      this.trimming = this.db.query(TRIM_SQL).then(
        () => {},
        () => {},
      );
    }
    const changed = first.changed ?? [];
    return {
      n: Number(first.docs),
      totalLen: Number(first.total_len),
      versions: terms.map((_, i) => (rows[i].present ? HELD : null)),
      postings: terms.map((_, i): TermRead | null => {
        const r = rows[i];
        return r.present && have[i] === null ? { seqs: r.seqs ?? [], wtf: r.tfs ?? [], lens: r.lens ?? [] } : null;
      }),
      reset,
      changed: isolated
        ? undefined
        : {
            next: Number(first.next),
            nodes: changed.map((c) => ({ seq: Number(c.seq), len: c.len === null ? null : Number(c.len), tf: c.tf === null ? null : new Map(Object.entries(c.tf).map(([t, f]) => [t, Number(f)])) })),
          },
    };
  }

  // No change log in the process: read() hands the changes it read.
  watch(): number {
    return 0;
  }

  unwatch(tenantId: string): void {
    this.lastRead.delete(tenantId);
  }

  changes(_tenantId: string, from: number): { seqs: number[]; next: number } {
    return { seqs: [], next: from };
  }

  async nodes(): Promise<NodeTerms[]> {
    return [];
  }

  /** Each node's weighted tf per lexeme and length, as the keyword trigger keeps them. */
  async termVectors(tenantId: string, seqs: number[]): Promise<NodeTerms[]> {
    if (seqs.length === 0) return [];
    const r = await this.db.query<{ seq: string | number; len: number; tf: Record<string, number> }>('SELECT seq, len, tf FROM node_keywords WHERE tenant_id = $1 AND seq = ANY($2::bigint[])', [tenantId, seqs]);
    return r.rows.map((row) => ({ seq: Number(row.seq), len: Number(row.len), tf: new Map(Object.entries(row.tf).map(([t, f]) => [t, Number(f)])) }));
  }

  /** The lexemes of each FTS5 phrase, as the index reads them. */
  async indexedTerms(phrases: string[]): Promise<string[][]> {
    return phrases.map((p) => phraseLexemes(p));
  }
}
