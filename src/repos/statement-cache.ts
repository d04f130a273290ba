// Statements whose SQL depends on which filters a request uses are prepared the first time
// each shape is seen and reused after that (the store keeps each statement by its SQL).
import type { Database, Statement } from '../db/store/contract.js';

export type Prepare = (sql: string) => Statement;

export function statementCache(db: Database): Prepare {
  return (sql) => db.prepare(sql);
}

/** The same over the better-sqlite3 connection itself, for SQLite's own keyword internals (synchronous). */
export type SyncPrepare = (sql: string) => import('better-sqlite3').Statement;

export function syncStatementCache(db: import('../db/open.js').Db): SyncPrepare {
  const cache = new Map<string, import('better-sqlite3').Statement>();
  return (sql) => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
}
