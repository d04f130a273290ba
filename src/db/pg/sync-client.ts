// A synchronous PostgreSQL connection for Rhizome's synchronous repositories: each call
// blocks the calling thread until the pg worker (sync-worker.ts, one per process, through
// synckit) has the answer. Why synchronous and what it costs: docs/scale-out.md, Stage 1
// (15–35 µs a statement over awaited node-postgres, bench/lab/pg-sync-bridge.ts).
//
// Errors: a statement PostgreSQL rejects throws PgQueryError with its SQLSTATE `code`; a
// database that cannot be reached, or a link lost mid-call, throws PgUnavailableError
// (the HTTP layer answers 503 with Retry-After). The next call after an outage reconnects.
import { synckitModule } from './lazy-modules.js';
import { distPath } from '../../paths.js';
import { PgQueryError, PgUnavailableError } from './errors.js';
import type { PgReply, PgRequest } from './sync-worker.js';

export { PgQueryError, PgUnavailableError };

export interface PgSyncOptions {
  /** How long connecting may take before the call fails as unavailable. */
  connectTimeoutMs?: number;
  /** PostgreSQL's statement_timeout for the session (0: none). */
  statementTimeoutMs?: number;
}

/**
 * How long the calling thread waits for any one answer: past the statement timeout and the
 * connect timeout. Process-wide, because synckit keeps one worker per script path and fixes
 * its wait when that worker starts.
 */
const CALL_TIMEOUT_MS = 60_000;

type Call = (req: PgRequest) => PgReply;
let worker: Call | undefined;
const call: Call = (req) => (worker ??= synckitModule().createSyncFn<(req: PgRequest) => Promise<PgReply>>(distPath('pg-worker.js'), { timeout: CALL_TIMEOUT_MS }))(req);

export interface PgResult<T> {
  rows: T[];
  rowCount: number | null;
}

export class PgSync {
  private handle: number | null;
  private depth = 0;
  /** BEGIN not sent yet: it travels with the transaction's first statement (one bridge round trip fewer). */
  private beginPending = false;
  /** Statements sent with the next call (defer()). */
  private deferred: Array<{ sql: string; params: unknown[] }> = [];

  constructor(
    readonly url: string,
    opts: PgSyncOptions = {},
  ) {
    const r = this.send({ op: 'open', url, connectTimeoutMs: opts.connectTimeoutMs ?? 5000, statementTimeoutMs: opts.statementTimeoutMs ?? 30_000 });
    this.handle = r.handle!;
  }

  /** Runs one statement (`$1`… parameters) and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): PgResult<T> {
    if (this.handle === null) throw new PgQueryError('connection closed', undefined);
    const begin = this.beginPending;
    const before = this.deferred;
    // Sent now: whatever the answer, the transaction may be open and the deferred statements run.
    this.beginPending = false;
    this.deferred = [];
    const r = this.send({ op: 'query', handle: this.handle, sql, params, ...(begin ? { begin } : {}), ...(before.length ? { before } : {}) });
    return { rows: (r.rows ?? []) as T[], rowCount: r.rowCount ?? null };
  }

  /**
   * A statement whose answer nobody waits for, inside a transaction: it goes to PostgreSQL
   * with the transaction's next statement (at the latest its COMMIT), and its error is that
   * statement's error, so the transaction fails as it would have. Outside one it runs now.
   */
  defer(sql: string, params: unknown[] = []): void {
    if (this.depth === 0) this.query(sql, params);
    else this.deferred.push({ sql, params });
  }

  /** Runs fn in one transaction; a nested call is a savepoint. All or nothing. */
  transaction<T>(fn: () => T): T {
    const outer = this.depth === 0;
    const sp = `rz_sp${this.depth}`;
    if (outer) this.beginPending = true;
    else this.query(`SAVEPOINT ${sp}`); // carries the enclosing scope's deferred statements
    this.depth++;
    let out: T;
    try {
      out = fn();
    } catch (e) {
      this.depth--;
      this.abandon(outer, sp);
      throw e;
    }
    this.depth--;
    try {
      if (!outer) this.query(`RELEASE SAVEPOINT ${sp}`);
      else if (this.beginPending && !this.deferred.length) this.beginPending = false; // nothing ran: nothing to commit
      else this.query('COMMIT');
    } catch (e) {
      this.abandon(outer, sp);
      throw e;
    }
    return out;
  }

  /** Rolls the failed scope back; its statements not sent yet are dropped (the enclosing scope's went with SAVEPOINT). */
  private abandon(outer: boolean, sp: string): void {
    this.deferred = [];
    try {
      if (!outer) this.query(`ROLLBACK TO SAVEPOINT ${sp}`);
      else if (this.beginPending) this.beginPending = false;
      else this.query('ROLLBACK');
    } catch {
      /* the connection is gone: PostgreSQL rolls the transaction back itself */
    }
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  close(): void {
    if (this.handle === null) return;
    const handle = this.handle;
    this.handle = null;
    this.send({ op: 'close', handle });
  }

  private send(req: PgRequest): Extract<PgReply, { ok: true }> {
    let r: PgReply;
    try {
      r = call(req);
    } catch (e) {
      // synckit's own failure: the worker did not answer in time.
      throw new PgUnavailableError(`PostgreSQL did not answer: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (r.ok) return r;
    if (r.kind === 'unavailable') throw new PgUnavailableError(r.message);
    throw new PgQueryError(r.message, r.code);
  }
}
