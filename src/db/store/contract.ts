// The one storage contract every repository is written against, whichever engine is under
// it: statements whose calls return promises, and transactions as asynchronous units of
// work. Services never see this: they see repositories and the UnitOfWork.
import type { RawBuilder } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

export interface RunResult {
  changes: number;
  /** SQLite's rowid of the last insert; always 0 on PostgreSQL (say RETURNING and call get()). */
  lastInsertRowid: number | bigint;
}

/** A prepared statement. pluck() and raw() return a statement in that mode (the original is unchanged). */
export interface Statement {
  get(...params: unknown[]): Promise<unknown>;
  all(...params: unknown[]): Promise<unknown[]>;
  run(...params: unknown[]): Promise<RunResult>;
  /** Rows as their first column's value. */
  pluck(on?: boolean): Statement;
  /** Rows as arrays of values. */
  raw(on?: boolean): Statement;
}

export interface UnitOfWork {
  /**
   * Runs fn in one transaction, all or nothing. A call made inside fn (at any depth of
   * awaits) joins the enclosing transaction as a savepoint: its failure undoes only its part.
   * Nested calls inside one transaction run one after another.
   */
  withTx<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs fn once the enclosing transaction has committed (at once outside a transaction);
   * dropped if it rolls back. For effects outside the database: in-memory indexes, events.
   * The outermost withTx resolves once its hooks have run, one after another.
   */
  afterCommit(fn: () => void | Promise<void>): void;
}

/**
 * What a repository holds: queries (Kysely's `sql` template, store/sql.ts), DDL for the
 * engine's own tables, and transactions.
 */
export interface Database extends UnitOfWork {
  readonly engine: Engine;
  /** Every row. */
  all<T>(q: RawBuilder<T>): Promise<T[]>;
  /** The first row, if any. */
  one<T>(q: RawBuilder<T>): Promise<T | undefined>;
  /** The first row's first column, if any. */
  value<T>(q: RawBuilder<unknown>): Promise<T | undefined>;
  /** A write: how many rows it changed. */
  run(q: RawBuilder<unknown>): Promise<RunResult>;
  /**
   * A write whose outcome the caller does not read. Inside a PostgreSQL transaction it is
   * sent with the transaction's next statement (COMMIT at the latest), in one round trip,
   * and its failure fails that statement (so the transaction); elsewhere it runs at once.
   * `sent`, if given, hears how many rows it changed once it has run (before the commit).
   */
  later(q: RawBuilder<unknown>, sent?: (r: RunResult) => void): Promise<void>;
  exec(sql: string): Promise<void>;
  /** Whether the caller is inside an open transaction. */
  readonly inTransaction: boolean;
  close(): Promise<void>;
}
