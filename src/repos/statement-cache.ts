// Statements whose SQL depends on which filters a request uses are prepared the first time
// each shape is seen and reused after that (a handful of shapes exist).
import type Database from 'better-sqlite3';
import type { Db } from '../db/open.js';

export type Prepare = (sql: string) => Database.Statement;

export function statementCache(db: Db): Prepare {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
}
