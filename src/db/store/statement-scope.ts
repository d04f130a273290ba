// How long a request's statements may run, and when they stop mattering: the HTTP layer opens
// a scope per request (its client's disconnect signal and a deadline by request kind); the
// PostgreSQL store cancels a statement still running when either comes (pg_cancel_backend on
// another connection, so the server stops the work rather than finishing it for nobody).
// SQLite's statements take microseconds: there is nothing to cancel.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface StatementScope {
  /** Aborts when the client that asked has gone away. */
  signal?: AbortSignal;
  /** Milliseconds a statement may run before it is cancelled (the pool's statement_timeout stays the backstop). */
  deadlineMs?: number;
}

const scopes = new AsyncLocalStorage<StatementScope>();

export function withStatementScope<T>(scope: StatementScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/**
 * Runs fn outside any request's scope: background work a request only woke (the job queue's
 * pump, index loads) is not the request's, and must not be cancelled when its client leaves
 * or its deadline passes. `detached()` (transactions.ts) leaves both a transaction and this.
 */
export function outsideStatementScope<T>(fn: () => T): T {
  return scopes.exit(fn);
}

export function currentStatementScope(): StatementScope | undefined {
  return scopes.getStore();
}

/** Statements of a request that was cancelled (its client left, or its deadline passed): SQLSTATE 57014. */
export const QUERY_CANCELED = '57014';

/**
 * The deadline for a request's statements by kind: reads answer people waiting at a screen
 * (10 s); writes and imports may need longer (30 s); whole-graph exports longest (120 s).
 */
export function statementDeadlineMs(method: string, path: string): number {
  if (/\/export(\b|\/)|\/backup\b/.test(path)) return 120_000;
  return method === 'GET' || method === 'HEAD' ? 10_000 : 30_000;
}
