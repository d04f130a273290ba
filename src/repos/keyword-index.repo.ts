// One FTS5 table per tenant, so BM25's document frequencies, document count and average
// length come from the tenant's own nodes: another tenant's notes can neither move a
// tenant's scores nor be inferred from them. The table is created with the tenant's first
// node (or by migration 2 for existing data); rowid = nodes.seq. Contentless: no text is
// stored twice (highlights are computed from the node row, see search/highlights.ts).
import type Database from 'better-sqlite3';
import { createFtsTable, ftsTable } from '../db/fts-tables.js';
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

export class KeywordIndexRepo {
  private readonly known = new Set<string>();
  private readonly stmts = new Map<string, { insert: Database.Statement; del: Database.Statement }>();

  constructor(private readonly db: Db) {}

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
      };
      this.stmts.set(t, s);
    }
    return s;
  }

  insert(tenantId: string, seq: number, f: FtsFields): void {
    this.ensure(tenantId).insert.run(seq, f.title, f.summary, f.body, f.tags);
    recordChange(this.db, tenantId, seq);
  }

  /** Forgets what it knows of the tenant's table (its creation may have been rolled back): every reader sharing this repository asks again. */
  forget(tenantId: string): void {
    this.known.delete(ftsTable(tenantId));
    this.stmts.delete(ftsTable(tenantId));
  }

  delete(tenantId: string, seq: number): void {
    if (this.table(tenantId)) this.ensure(tenantId).del.run(seq);
    recordChange(this.db, tenantId, seq);
  }

  /** Rows in the tenant's table, BM25's N: one per node (tenant_stats keeps the count). */
  rows(tenantId: string): number {
    if (!this.table(tenantId)) return 0;
    return (this.db.prepare('SELECT total_nodes FROM tenant_stats WHERE tenant_id = ?').pluck().get(tenantId) as number | undefined) ?? 0;
  }
}

/**
 * NodesRepo's keyword index on SQLite: the tenant's FTS5 table, written in the caller's turn
 * on the connection. A write rolled back is recorded again as changed, so the keyword
 * module takes the node in as it is after the rollback (a query inside the transaction may
 * have taken in the write).
 */
export function fts5NodeKeywords(store: SqliteStore, fts = new KeywordIndexRepo(store.handle)): NodeKeywordIndex {
  const write = async (tenantId: string, seq: number, f?: FtsFields) => {
    await store.turn();
    if (f) fts.insert(tenantId, seq, f);
    else fts.delete(tenantId, seq);
    store.afterRollback(() => {
      fts.forget(tenantId);
      recordChange(store.handle, tenantId, seq);
    });
  };
  return { insert: (tenantId, seq, f) => write(tenantId, seq, f), delete: (tenantId, seq) => write(tenantId, seq) };
}
