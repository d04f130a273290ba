// SQLite's own keyword internals (synchronous, on the better-sqlite3 connection): statements
// whose SQL depends on the request's filters are prepared the first time each shape is seen.
export type SyncPrepare = (sql: string) => import('better-sqlite3').Statement;

export function syncStatementCache(db: import('../db/open.js').Db): SyncPrepare {
  const cache = new Map<string, import('better-sqlite3').Statement>();
  return (sql) => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
}
