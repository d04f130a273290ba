// Direct SQL in tests, in SQLite's dialect with `?` parameters, on either store: SQLite runs
// it as written, PostgreSQL after test/helpers/sql-translate.ts. For checks a test makes
// behind the API's back (counting rows, a query plan, a row put in place).
import type { Database, Statement } from '../../src/db/store/contract.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import type { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { translateSql } from './sql-translate.js';

type Mode = 'rows' | 'pluck' | 'raw';

function pgStatement(db: PgStore, source: string, mode: Mode = 'rows'): Statement {
  const t = translateSql(source);
  const bind = (args: unknown[]) => {
    const p = t.params;
    if (p.kind === 'named') {
      const obj = args[0] as Record<string, unknown>;
      return p.names.map((n) => obj[n]);
    }
    return args.flatMap((a) => (Array.isArray(a) ? a : [a]));
  };
  const shape = (rows: Record<string, unknown>[]) =>
    mode === 'pluck' ? rows.map((r) => r[Object.keys(r)[0]]) : mode === 'raw' ? rows.map((r) => Object.values(r)) : rows;
  return {
    get: async (...args) => shape((await db.query(t.sql, bind(args))).rows)[0],
    all: async (...args) => shape((await db.query(t.sql, bind(args))).rows),
    run: async (...args) => ({ changes: (await db.query(t.sql, bind(args))).rowCount ?? 0, lastInsertRowid: 0 }),
    pluck: (on = true) => pgStatement(db, source, on ? 'pluck' : 'rows'),
    raw: (on = true) => pgStatement(db, source, on ? 'raw' : 'rows'),
  };
}

export function raw(db: Database): { prepare(sql: string): Statement } {
  return { prepare: (sql) => (db instanceof PgStore ? pgStatement(db, sql) : (db as SqliteStore).prepare(sql)) };
}
