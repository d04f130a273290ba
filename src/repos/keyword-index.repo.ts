// One FTS5 table per tenant, so BM25's document frequencies, document count and average
// length come from the tenant's own nodes: another tenant's notes can neither move a
// tenant's scores nor be inferred from them. The table is created with the tenant's first
// node (or by migration 2 for existing data); rowid = nodes.seq. Contentless: no text is
// stored twice (highlights are computed from the node row, see search/highlights.ts).
import type Database from 'better-sqlite3';
import { createFtsTable, FTS_OPTIONS, ftsTable } from '../db/fts-tables.js';
import type { Db } from '../db/open.js';
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
const DF_CACHE_MAX = 20_000;

export class KeywordIndexRepo {
  private readonly known = new Set<string>();
  private readonly writes: Map<string, number>;
  private readonly dfCache = new Map<string, number>();
  private readonly terms = new Map<string, string | null>();
  private termStmts?: { put: Database.Statement; read: Database.Statement; clear: Database.Statement };
  private readonly stmts = new Map<string, { insert: Database.Statement; del: Database.Statement; hits: Database.Statement }>();

  constructor(private readonly db: Db) {
    let w = writeCounts.get(db);
    if (!w) writeCounts.set(db, (w = new Map()));
    this.writes = w;
  }

  private wrote(tenantId: string): void {
    this.writes.set(tenantId, (this.writes.get(tenantId) ?? 0) + 1);
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

  /** How many of the tenant's nodes match an FTS5 expression (one quoted term: its document frequency). */
  matchCount(tenantId: string, match: string): number {
    return this.table(tenantId) ? (this.ensure(tenantId).hits.get(match) as number) : 0;
  }

  /**
   * The single token FTS5 indexes for a quoted term, read from FTS5's own tokenizer through
   * a scratch table in the connection's temp schema (null when it makes no single token).
   * Deterministic, so remembered for the process' life.
   */
  termOf(phrase: string): string | null {
    let s = this.terms.get(phrase);
    if (s !== undefined) return s;
    if (!this.termStmts) {
      this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.rhizome_stemmer USING fts5(x, ${FTS_OPTIONS.replace("content='', contentless_delete=1, ", '')})`);
      this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.rhizome_stemmer_terms USING fts5vocab(temp, rhizome_stemmer, 'instance')`);
      this.termStmts = {
        put: this.db.prepare('INSERT INTO temp.rhizome_stemmer (rowid, x) VALUES (1, ?)'),
        read: this.db.prepare('SELECT term FROM temp.rhizome_stemmer_terms').pluck(),
        clear: this.db.prepare('DELETE FROM temp.rhizome_stemmer'),
      };
    }
    this.termStmts.put.run(phrase.slice(1, -1).replace(/""/g, '"'));
    const tokens = this.termStmts.read.all() as string[];
    this.termStmts.clear.run();
    s = tokens.length === 1 ? tokens[0] : null;
    if (this.terms.size > 100_000) this.terms.clear();
    this.terms.set(phrase, s);
    return s;
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
