// The part of better-sqlite3's API Rhizome's repositories use — prepare() with get, all,
// run, iterate, pluck and raw; transaction(); exec() — over a PostgreSQL connection
// (PgSync, synchronous), each statement's SQL translated once (sql-translate.ts). A
// repository written for SQLite runs on it unchanged where its SQL is portable; where it is
// not, the translation refuses it and the repository has a PostgreSQL twin.
import type { PgSync } from './sync-client.js';
import { translateSql, type Translated } from './sql-translate.js';

export interface RunResult {
  changes: number;
  /** Always 0: PostgreSQL has no rowid; a repository that needs the new key says `RETURNING` and calls get(). */
  lastInsertRowid: 0;
}

/** better-sqlite3 gives BLOBs back as Buffers; the bridge's structured clone gives Uint8Arrays. */
function fixRow(row: Record<string, unknown>): Record<string, unknown> {
  for (const k in row) {
    const v = row[k];
    if (v instanceof Uint8Array && !Buffer.isBuffer(v)) row[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  }
  return row;
}

function isBindObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Date);
}

export class PgStatement {
  private mode: 'rows' | 'pluck' | 'raw' = 'rows';
  private readonly t: Translated;

  constructor(
    private readonly conn: PgSync,
    readonly source: string,
  ) {
    this.t = translateSql(source);
  }

  pluck(on = true): this {
    this.mode = on ? 'pluck' : 'rows';
    return this;
  }

  raw(on = true): this {
    this.mode = on ? 'raw' : 'rows';
    return this;
  }

  get(...args: unknown[]): unknown {
    return this.shape(this.exec(args).rows)[0];
  }

  all(...args: unknown[]): unknown[] {
    return this.shape(this.exec(args).rows);
  }

  *iterate(...args: unknown[]): IterableIterator<unknown> {
    yield* this.all(...args);
  }

  run(...args: unknown[]): RunResult {
    return { changes: this.exec(args).rowCount ?? 0, lastInsertRowid: 0 };
  }

  /** run() when nobody reads its answer: inside a transaction it travels with the next statement (PgSync.defer). */
  runLater(...args: unknown[]): void {
    this.conn.defer(this.t.sql, this.bind(args));
  }

  private exec(args: unknown[]) {
    return this.conn.query<Record<string, unknown>>(this.t.sql, this.bind(args));
  }

  private bind(args: unknown[]): unknown[] {
    const p = this.t.params;
    if (p.kind === 'named') {
      const obj = args[0];
      if (!isBindObject(obj)) throw new TypeError(`named parameters need an object: ${this.source.slice(0, 60)}`);
      return p.names.map((n) => {
        if (!(n in obj)) throw new RangeError(`missing named parameter '${n}'`);
        return obj[n];
      });
    }
    const flat = args.flatMap((a) => (Array.isArray(a) ? a : [a]));
    const want = p.kind === 'positional' ? p.count : 0;
    if (flat.length !== want) throw new RangeError(`statement takes ${want} parameters, got ${flat.length}`);
    return flat;
  }

  private shape(rows: Record<string, unknown>[]): unknown[] {
    if (this.mode === 'pluck') return rows.map((r) => fixRow(r)[Object.keys(r)[0]]);
    if (this.mode === 'raw') return rows.map((r) => Object.values(fixRow(r)));
    return rows.map(fixRow);
  }
}

export class PgDb {
  constructor(readonly conn: PgSync) {}

  prepare(sql: string): PgStatement {
    return new PgStatement(this.conn, sql);
  }

  exec(sql: string): this {
    this.conn.query(sql);
    return this;
  }

  /** Like better-sqlite3: returns a function that runs fn in a transaction (nested: a savepoint). */
  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T {
    return (...args: A) => this.conn.transaction(() => fn(...args));
  }

  get inTransaction(): boolean {
    return this.conn.inTransaction;
  }

  close(): void {
    this.conn.close();
  }
}
