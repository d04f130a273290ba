// One FTS5 table per tenant, so BM25's document frequencies, document count and average
// length come from the tenant's own nodes: another tenant's notes can neither move a
// tenant's scores nor be inferred from them. The table is created with the tenant's first
// node (or by migration 2 for existing data); rowid = nodes.seq. Contentless: no text is
// stored twice (highlights are computed from the node row, see search/highlights.ts).
import type Database from 'better-sqlite3';
import { createFtsTable, ftsTable } from '../db/fts-tables.js';
import type { Db } from '../db/open.js';
import { FIELD_WEIGHTS } from '../search/keyword-score.js';
import { recordChange } from './keyword-changes.js';
import type { SqliteStore } from '../db/store/sqlite-store.js';
import type { NodeKeywordIndex } from './nodes.repo.js';

export { ftsTable };

export interface FtsFields {
  title: string;
  summary: string;
  body: string;
  tags: string;
}

/**
 * Writes per tenant, per database: document frequencies cached under an older count are
 * stale. Shared by every KeywordIndexRepo on the same database (module state, keyed weakly).
 */
const writeCounts = new WeakMap<object, Map<string, number>>();
/** When each tenant last wrote (ms), per database: background refreshes wait for a quiet index. */
const lastWrites = new WeakMap<object, Map<string, number>>();
const DF_CACHE_MAX = 20_000;

export class KeywordIndexRepo {
  private readonly known = new Set<string>();
  private readonly writes: Map<string, number>;
  private readonly lastWrite: Map<string, number>;
  private readonly dfCache = new Map<string, number>();
  private readonly stmts = new Map<string, { insert: Database.Statement; del: Database.Statement; hits: Database.Statement; scored: Database.Statement; scoredRaw: Database.Statement }>();

  constructor(private readonly db: Db) {
    let w = writeCounts.get(db);
    if (!w) writeCounts.set(db, (w = new Map()));
    this.writes = w;
    let l = lastWrites.get(db);
    if (!l) lastWrites.set(db, (l = new Map()));
    this.lastWrite = l;
  }

  private wrote(tenantId: string): void {
    this.writes.set(tenantId, (this.writes.get(tenantId) ?? 0) + 1);
    this.lastWrite.set(tenantId, Date.now());
  }

  /** Milliseconds since the tenant's last write in this process (Infinity: none). */
  quietFor(tenantId: string): number {
    const at = this.lastWrite.get(tenantId);
    return at === undefined ? Infinity : Date.now() - at;
  }

  /** The tenant's table name when it exists (null: the tenant has never had a node). */
  table(tenantId: string): string | null {
    const t = ftsTable(tenantId);
    if (this.known.has(t)) return t;
    const found = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t);
    if (!found) return null;
    this.known.add(t);
    return t;
  }

  private ensure(tenantId: string) {
    const t = this.table(tenantId) ?? (this.known.add(createFtsTable(this.db, tenantId)), ftsTable(tenantId));
    let s = this.stmts.get(t);
    if (!s) {
      s = {
        insert: this.db.prepare(`INSERT INTO ${t} (rowid, title, summary, body, tags) VALUES (?, ?, ?, ?, ?)`),
        del: this.db.prepare(`DELETE FROM ${t} WHERE rowid = ?`),
        hits: this.db.prepare(`SELECT count(*) FROM ${t} WHERE ${t} MATCH ?`).pluck(),
        scored: this.db.prepare(`SELECT rowid AS seq, -bm25(${t}, ${FIELD_WEIGHTS.join(', ')}) AS score FROM ${t} WHERE ${t} MATCH ?`),
        scoredRaw: this.db.prepare(`SELECT rowid, -bm25(${t}, ${FIELD_WEIGHTS.join(', ')}) FROM ${t} WHERE ${t} MATCH ?`).raw(true),
      };
      this.stmts.set(t, s);
    }
    return s;
  }

  insert(tenantId: string, seq: number, f: FtsFields): void {
    this.ensure(tenantId).insert.run(seq, f.title, f.summary, f.body, f.tags);
    recordChange(this.db, tenantId, seq);
    this.wrote(tenantId);
  }

  delete(tenantId: string, seq: number): void {
    if (this.table(tenantId)) this.ensure(tenantId).del.run(seq);
    recordChange(this.db, tenantId, seq);
    this.wrote(tenantId);
  }

  /**
   * Document frequency of each quoted term among the tenant's nodes, cached until the
   * tenant's next write (a common word costs a few ms to count at 100k nodes).
   */
  docFrequencies(tenantId: string, phrases: string[]): number[] {
    const version = this.writes.get(tenantId) ?? 0;
    return phrases.map((p) => {
      const key = `${tenantId}\u0000${version}\u0000${p}`;
      let df = this.dfCache.get(key);
      if (df === undefined) {
        df = this.matchCount(tenantId, p);
        if (this.dfCache.size >= DF_CACHE_MAX) this.dfCache.clear();
        this.dfCache.set(key, df);
      }
      return df;
    });
  }

  /** The tenant's write counter: anything computed from its index is stale once it moves. */
  version(tenantId: string): number {
    return this.writes.get(tenantId) ?? 0;
  }

  /**
   * Every node matching an FTS5 expression with its -bm25() under FIELD_WEIGHTS, unordered
   * and unlimited: callers keep it short (rare terms) or cache it (termImpacts).
   */
  scoredMatches(tenantId: string, match: string): { seq: number; score: number }[] {
    return this.table(tenantId) ? (this.ensure(tenantId).scored.all(match) as { seq: number; score: number }[]) : [];
  }

  /**
   * The same as scoredMatches, straight into typed arrays (seqs ascending): a common term's
   * 100k matches as objects are ~5 MB of garbage that lives long enough to reach V8's old
   * generation, and pre-scoring 64 such terms left ~60 MB of it at start-up.
   */
  scoredColumns(tenantId: string, match: string): { seqs: Int32Array; scores: Float64Array } {
    if (!this.table(tenantId)) return { seqs: new Int32Array(0), scores: new Float64Array(0) };
    let seqs = new Int32Array(1024);
    let scores = new Float64Array(1024);
    let n = 0;
    let sorted = true;
    for (const [seq, score] of this.ensure(tenantId).scoredRaw.iterate(match) as IterableIterator<[number, number]>) {
      if (n === seqs.length) {
        const s2 = new Int32Array(n * 2);
        s2.set(seqs);
        seqs = s2;
        const c2 = new Float64Array(n * 2);
        c2.set(scores);
        scores = c2;
      }
      if (n > 0 && seq < seqs[n - 1]) sorted = false;
      seqs[n] = seq;
      scores[n++] = score;
    }
    seqs = seqs.slice(0, n);
    scores = scores.slice(0, n);
    if (!sorted) {
      // FTS5 answers in rowid order; should it not, sort here (never seen).
      const idx = Int32Array.from(seqs.keys()).sort((a, b) => seqs[a] - seqs[b]);
      return { seqs: Int32Array.from(idx, (i) => seqs[i]), scores: Float64Array.from(idx, (i) => scores[i]) };
    }
    return { seqs, scores };
  }

  /** How many of the tenant's nodes match an FTS5 expression (one quoted term: its document frequency). */
  matchCount(tenantId: string, match: string): number {
    return this.table(tenantId) ? (this.ensure(tenantId).hits.get(match) as number) : 0;
  }

  /** Rows in the tenant's table, BM25's N: one per node (tenant_stats keeps the count). */
  rows(tenantId: string): number {
    if (!this.table(tenantId)) return 0;
    return (this.db.prepare('SELECT total_nodes FROM tenant_stats WHERE tenant_id = ?').pluck().get(tenantId) as number | undefined) ?? 0;
  }
}

/** NodesRepo's keyword index on SQLite: the tenant's FTS5 table, written in the caller's turn on the connection. */
export function fts5NodeKeywords(store: SqliteStore): NodeKeywordIndex {
  const fts = new KeywordIndexRepo(store.handle);
  return {
    insert: async (tenantId, seq, f) => {
      await store.turn();
      fts.insert(tenantId, seq, f);
    },
    delete: async (tenantId, seq) => {
      await store.turn();
      fts.delete(tenantId, seq);
    },
  };
}
