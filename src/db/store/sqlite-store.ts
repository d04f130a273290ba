// The SQLite store: better-sqlite3 behind the asynchronous contract. Its calls take
// microseconds and run on the event loop as before; what the contract adds is order. One
// connection serves every request, so while a transaction is open (it may await between its
// statements) every other caller's statements and transactions wait their turn: two
// requests never interleave inside one transaction, and nobody reads what it has not committed.
import type Sqlite from 'better-sqlite3';
import { closeDatabase, type Db } from '../open.js';
import type { RawBuilder } from 'kysely';
import type { Database, RunResult, Statement } from './contract.js';
import { compile } from './sql.js';
import { TransactionalStore, Transactions } from './transactions.js';

type Mode = 'rows' | 'pluck' | 'raw';

class SqliteStatement implements Statement {
  constructor(
    private readonly store: SqliteStore,
    private readonly stmt: Sqlite.Statement,
    private readonly mode: Mode = 'rows',
  ) {}

  pluck(on = true): Statement {
    return new SqliteStatement(this.store, this.stmt, on ? 'pluck' : 'rows');
  }

  raw(on = true): Statement {
    return new SqliteStatement(this.store, this.stmt, on ? 'raw' : 'rows');
  }

  async get(...params: unknown[]): Promise<unknown> {
    await this.store.turn();
    return this.shaped().get(...params);
  }

  async all(...params: unknown[]): Promise<unknown[]> {
    await this.store.turn();
    return this.shaped().all(...params);
  }

  async run(...params: unknown[]): Promise<RunResult> {
    await this.store.turn();
    return this.stmt.run(...params);
  }

  private shaped(): Sqlite.Statement {
    const s = this.stmt;
    if (modes.get(s) !== this.mode) {
      s.raw(false);
      s.pluck(false);
      if (this.mode === 'pluck') s.pluck(true);
      else if (this.mode === 'raw') s.raw(true);
      modes.set(s, this.mode);
    }
    return s;
  }
}

/** The mode a cached statement was last set to (setting it costs a native call). */
const modes = new WeakMap<Sqlite.Statement, Mode>();

export class SqliteStore extends TransactionalStore<Db> implements Database {
  readonly engine = 'sqlite' as const;
  private readonly statements = new Map<string, Sqlite.Statement>();
  private readonly compiled = new Map<string, Sqlite.Statement>();
  protected readonly tx: Transactions<Db>;
  /** A transaction is open: callers outside it wait for it to end. */
  private busy = false;
  private waiters: Array<() => void> = [];
  private readonly closers: Array<() => Promise<void>> = [];

  constructor(
    /** The better-sqlite3 connection: for SQLite's own tools (migrations, backups, the keyword module's FTS5 reads). */
    readonly handle: Db,
    /** Where an after-commit hook's error goes (the container points it at the log). */
    public onHookError: (e: unknown) => void = () => {},
  ) {
    super();
    this.tx = new Transactions<Db>(
      {
        begin: async () => {
          while (this.busy) await this.waitTurn();
          // The write lock at BEGIN (IMMEDIATE): when another process (an admin command on the
          // data folder) has written meanwhile it waits for the lock (busy_timeout) instead of
          // failing with "database is locked" when it upgrades from reading to writing.
          handle.exec('BEGIN IMMEDIATE');
          this.busy = true;
          return handle;
        },
        commit: async (h) => void h.exec('COMMIT'),
        rollback: async (h) => {
          if (h.inTransaction) h.exec('ROLLBACK');
        },
        end: () => {
          this.busy = false;
          const w = this.waiters;
          this.waiters = [];
          for (const wake of w) wake();
        },
        statement: async (h, sql) => void h.exec(sql),
      },
      (e) => this.onHookError(e),
    );
  }

  prepare(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.handle.prepare(sql)));
    return new SqliteStatement(this, s);
  }

  async all<T>(q: RawBuilder<T>): Promise<T[]> {
    const c = compile('sqlite', q);
    await this.turn();
    return this.statement(c.sql).all(...c.parameters) as T[];
  }

  async one<T>(q: RawBuilder<T>): Promise<T | undefined> {
    const c = compile('sqlite', q);
    await this.turn();
    return this.statement(c.sql).get(...c.parameters) as T | undefined;
  }

  async value<T>(q: RawBuilder<unknown>): Promise<T | undefined> {
    const row = await this.one<Record<string, unknown>>(q as RawBuilder<Record<string, unknown>>);
    return row ? (Object.values(row)[0] as T) : undefined;
  }

  async run(q: RawBuilder<unknown>): Promise<RunResult> {
    const c = compile('sqlite', q);
    await this.turn();
    return this.statement(c.sql).run(...c.parameters);
  }

  /** The cached statement for this compiled text (always in row mode). */
  private statement(text: string): Sqlite.Statement {
    let s = this.compiled.get(text);
    if (!s) this.compiled.set(text, (s = this.handle.prepare(text)));
    return s;
  }

  /** At once: a statement here costs no round trip. */
  async later(q: RawBuilder<unknown>, sent?: (r: RunResult) => void): Promise<void> {
    const r = await this.run(q);
    sent?.(r);
  }

  async exec(sql: string): Promise<void> {
    await this.turn();
    this.handle.exec(sql);
  }

  /** Runs `fn` before the connection closes (what holds a connection of its own to the file ends first). */
  onClose(fn: () => Promise<void>): void {
    this.closers.push(fn);
  }

  /** Resolves when the caller may use the connection: no transaction is open, or it is the caller's own. */
  async turn(): Promise<void> {
    while (this.busy && !this.inTransaction) await this.waitTurn();
  }

  private waitTurn(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async close(o: { checkpoint?: 'TRUNCATE' | 'PASSIVE' } = {}): Promise<void> {
    for (const fn of this.closers.splice(0)) await fn().catch(() => {});
    closeDatabase(this.handle, o);
  }
}
