// The PostgreSQL store: node-postgres's Pool behind the asynchronous contract. A statement
// outside a transaction takes any pooled connection for its own time; a transaction holds one
// client from BEGIN to COMMIT, found again by every repository call inside it. One slow
// statement ties up one connection, never the process.
//
// A transaction's BEGIN, its savepoints and its later() writes are held and sent with its
// next statement: the pool's clients run in node-postgres's pipeline mode, so the held
// statements and that one leave in one write and come back in one round trip (a new node:
// BEGIN with the INSERT, the embedding job with the COMMIT).
//
// Errors: a statement PostgreSQL rejects throws PgQueryError with its SQLSTATE `code`; a
// database that cannot be reached, or a connection lost mid-call, throws PgUnavailableError
// (the HTTP layer answers 503 with Retry-After). A broken client is destroyed rather than
// returned to the pool, and the next call connects afresh: service resumes with no restart.
import type pg from 'pg';
import { pgTypes } from '../pg/connect.js';
import { PgQueryError, PgUnavailableError } from '../pg/errors.js';
import { pgModule } from '../pg/lazy-modules.js';
import type { RawBuilder } from 'kysely';
import type { Database, RunResult } from './contract.js';
import { compile } from './sql.js';
import { currentStatementScope } from './statement-scope.js';
import { TransactionalStore, Transactions } from './transactions.js';

export interface PgStoreOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** How long getting a connection may take before the call fails as unavailable (default 2000 ms). */
  connectTimeoutMs?: number;
  /** PostgreSQL's statement_timeout for every session (0: none; default 30 s). */
  statementTimeoutMs?: number;
}

/** SQLSTATEs that mean the server or the link went away (08: connection, 57P: shut down), not a bad statement. */
const UNAVAILABLE = /^(08(?!P01)|57P0)/;
/** node-postgres's own errors (no SQLSTATE) for a connection that broke or could not be made. */
const BROKEN = /Connection terminated|ECONNRESET|ECONNREFUSED|EPIPE|ENOTFOUND|EAI_AGAIN|not queryable|connection error|timeout expired|timeout exceeded when trying to connect/i;

function isBroken(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err.code ? UNAVAILABLE.test(err.code) || /^E[A-Z]+$/.test(err.code) : BROKEN.test(err.message ?? '');
}

/** A driver error as the services see it. */
export function pgError(e: unknown): Error {
  if (e instanceof PgQueryError || e instanceof PgUnavailableError) return e;
  const err = e as { code?: string; message?: string };
  const message = (err.message ?? String(e)).split('\n')[0];
  return isBroken(e) ? new PgUnavailableError(message) : new PgQueryError(message, err.code);
}

export interface PgResult<T> {
  rows: T[];
  rowCount: number | null;
}

/** Statements prepared by name on each connection, up to this many shapes (SQL built per call runs unnamed past it). */
const MAX_NAMED = 500;

/** A statement a transaction's client holds until it sends the next one. */
interface Held {
  sql: string;
  params: unknown[];
  /** BEGIN, or a savepoint set or released: nothing to send if nothing follows. */
  mark?: boolean;
  /** later()'s listener for the outcome. */
  sent?: (r: RunResult) => void;
}

const BEGIN: Held = { sql: 'BEGIN', params: [], mark: true };

export class PgStore extends TransactionalStore<pg.PoolClient> implements Database {
  readonly engine = 'postgres' as const;
  readonly pool: pg.Pool;
  protected readonly tx: Transactions<pg.PoolClient>;
  private readonly names = new Map<string, string>();
  /** What each transaction's client holds for its next statement (BEGIN first until it is sent). */
  private readonly held = new WeakMap<pg.PoolClient, Held[]>();

  constructor(
    readonly url: string,
    opts: PgStoreOptions = {},
    /** Where an after-commit hook's error goes (the container points it at the log). */
    public onHookError: (e: unknown) => void = () => {},
  ) {
    super();
    const { Pool } = pgModule();
    this.pool = new Pool({
      connectionString: url,
      types: pgTypes,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 2000,
      statement_timeout: opts.statementTimeoutMs ?? 30_000,
      idleTimeoutMillis: 30_000,
      pipeline: true,
    });
    // An idle client's error (the server restarted) must not crash the process: the pool drops it.
    this.pool.on('error', () => {});
    // Nor a checked-out client's: the pool listens only while a client is idle, and a session
    // the server ends between two statements of a transaction would otherwise be an uncaught
    // exception. Its next statement fails as unavailable and the client is destroyed.
    this.pool.on('connect', (client) => client.on('error', () => {}));
    this.tx = new Transactions<pg.PoolClient>(
      {
        begin: async () => {
          const client = await this.connect();
          this.held.set(client, [BEGIN]);
          return client;
        },
        commit: async (c) => {
          // A transaction that sent nothing and holds no write has nothing to commit.
          if (this.unsent(c) && this.held.get(c)!.every((h) => h.mark)) return void this.held.delete(c);
          await this.send(c, 'COMMIT', []);
        },
        rollback: async (c) => {
          const unsent = this.unsent(c);
          this.held.delete(c);
          if (!unsent) await c.query('ROLLBACK');
        },
        // A client whose transaction failed on a broken link is destroyed, not pooled again.
        end: (c, failed) => {
          this.held.delete(c);
          c.release(failed !== undefined && isBroken(failed) ? true : undefined);
        },
        // Setting and releasing a savepoint wait for the next statement; rolling back to one is sent.
        statement: async (c, sql) => {
          const held = this.held.get(c);
          if (held && !sql.startsWith('ROLLBACK')) held.push({ sql, params: [], mark: true });
          else await this.send(c, sql, []);
        },
      },
      (e) => this.onHookError(e),
    );
  }

  async all<T>(q: RawBuilder<T>): Promise<T[]> {
    const c = compile('postgres', q);
    return (await this.query<T>(c.sql, c.parameters as unknown[])).rows;
  }

  async one<T>(q: RawBuilder<T>): Promise<T | undefined> {
    return (await this.all(q))[0];
  }

  async value<T>(q: RawBuilder<unknown>): Promise<T | undefined> {
    const row = (await this.all<Record<string, unknown>>(q as RawBuilder<Record<string, unknown>>))[0];
    return row ? (Object.values(row)[0] as T) : undefined;
  }

  async run(q: RawBuilder<unknown>): Promise<RunResult> {
    const c = compile('postgres', q);
    return { changes: (await this.query(c.sql, c.parameters as unknown[])).rowCount ?? 0, lastInsertRowid: 0 };
  }

  async later(q: RawBuilder<unknown>, sent?: (r: RunResult) => void): Promise<void> {
    const f = this.tx.frame();
    const held = f && this.held.get(f.root.conn);
    if (!held) {
      const r = await this.run(q);
      return void sent?.(r);
    }
    const c = compile('postgres', q);
    held.push({ sql: c.sql, params: c.parameters as unknown[], sent });
  }

  async exec(sql: string): Promise<void> {
    await this.query(sql);
  }

  /** Runs one statement (`$1`… parameters): in the caller's transaction, else on any pooled connection. */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<PgResult<T>> {
    const f = this.tx.frame();
    if (f) return this.send<T>(f.root.conn, sql, params);
    let client: pg.PoolClient;
    client = await this.connect();
    let broken = false;
    try {
      return await this.send<T>(client, sql, params);
    } catch (e) {
      broken = e instanceof PgUnavailableError;
      throw e;
    } finally {
      client.release(broken || undefined);
    }
  }

  /** Whether this transaction's BEGIN is still held (nothing of it has reached the server). */
  private unsent(c: pg.PoolClient): boolean {
    return this.held.get(c)?.[0] === BEGIN;
  }
  /** Pool figures for /health and metrics. */
  poolStats(): { total: number; idle: number; waiting: number; size: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount, size: this.pool.options.max ?? 10 };
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }

  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (e) {
      throw new PgUnavailableError(`cannot reach PostgreSQL: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  /** node-postgres's form of a statement: prepared by name once per connection when it has parameters. */
  private config(sql: string, params: unknown[]): pg.QueryConfig | string {
    let name = params.length ? this.names.get(sql) : undefined;
    if (params.length && !name && this.names.size < MAX_NAMED) this.names.set(sql, (name = `rz${this.names.size}`));
    return name ? { name, text: sql, values: params } : params.length ? { text: sql, values: params } : sql;
  }

  private async send<T>(client: pg.PoolClient, sql: string, params: unknown[]): Promise<PgResult<T>> {
    // A request whose client already left sends nothing more.
    if (currentStatementScope()?.signal?.aborted) throw pgError(Object.assign(new Error('canceling statement: the client went away'), { code: '57014' }));
    const held = this.held.get(client);
    if (held?.length) this.held.set(client, []);
    const stop = this.cancelWhenDone(client);
    try {
      let r: pg.QueryResult;
      if (!held?.length) r = await client.query(this.config(sql, params));
      else {
        // The held statements and this one in one write (pipeline mode: each is answered in
        // turn); the first to fail fails the lot, and the transaction with it.
        const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
        const sent: Promise<pg.QueryResult>[] = [];
        stream.cork();
        try {
          for (const h of held) sent.push(client.query(this.config(h.sql, h.params)));
          sent.push(client.query(this.config(sql, params)));
        } finally {
          stream.uncork();
        }
        const results = await Promise.all(sent);
        held.forEach((h, i) => h.sent?.({ changes: results[i].rowCount ?? 0, lastInsertRowid: 0 }));
        r = results.at(-1)!;
      }
      return { rows: r.rows as T[], rowCount: r.rowCount };
    } catch (e) {
      throw pgError(e);
    } finally {
      await stop?.();
    }
  }

  /**
   * Cancels the statement this client is about to run if the request's client goes away or
   * its deadline passes first (statement-scope.ts). Returns the clean-up, or nothing without a scope.
   */
  private cancelWhenDone(client: pg.PoolClient): (() => Promise<void>) | undefined {
    const scope = currentStatementScope();
    if (!scope || (!scope.signal && !scope.deadlineMs)) return undefined;
    const pid = (client as unknown as { processID?: number }).processID;
    if (!pid) return undefined;
    let done = false;
    let sent: Promise<unknown> | undefined;
    const cancel = () => {
      if (done) return;
      done = true;
      // On another pooled connection: this one is busy with the statement.
      sent = this.pool.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => {});
    };
    scope.signal?.addEventListener('abort', cancel, { once: true });
    const timer = scope.deadlineMs ? setTimeout(cancel, scope.deadlineMs) : undefined;
    timer?.unref();
    return async () => {
      done = true;
      clearTimeout(timer);
      scope.signal?.removeEventListener('abort', cancel);
      // A cancel sent as the statement finished must land before this connection serves
      // another statement (perhaps another request's): once pg_cancel_backend has returned,
      // the signal reached a backend that was idle by then, and an idle backend ignores it.
      await sent;
    };
  }
}
