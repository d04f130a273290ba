// The unit of work: the only way services group writes. Services never hold the driver;
// they say "this is one transaction" and "run this once it has committed". This is the
// seam a second storage backend plugs into.
import type { Db } from './open.js';

export interface UnitOfWork {
  /** Runs fn in one transaction (nested calls join the enclosing one); all or nothing. */
  withTx<T>(fn: () => T): T;
  /**
   * Runs fn once the enclosing transaction has committed (at once outside a transaction);
   * dropped if it rolls back. For effects outside the database: in-memory indexes, events.
   */
  afterCommit(fn: () => void): void;
}

export function sqliteUnitOfWork(db: Db, onHookError: (e: unknown) => void = () => {}): UnitOfWork {
  let depth = 0;
  let pending: Array<() => void> = [];
  const run = (hooks: Array<() => void>) => {
    for (const h of hooks) {
      try {
        h();
      } catch (e) {
        onHookError(e);
      }
    }
  };
  return {
    withTx<T>(fn: () => T): T {
      const mark = pending.length;
      depth++;
      let result: T;
      try {
        // better-sqlite3 turns a nested transaction into a savepoint. The outermost one takes
        // the write lock at BEGIN (IMMEDIATE), so when another process (an admin command on
        // the data folder) has written meanwhile it waits for the lock (busy_timeout) instead
        // of failing at once with "database is locked" when it upgrades from reading to writing.
        const t = db.transaction(fn);
        result = depth === 1 && 'immediate' in t ? t.immediate() : t();
      } catch (e) {
        pending.length = mark; // what the failed part scheduled never happened
        throw e;
      } finally {
        depth--;
      }
      if (depth === 0 && pending.length) {
        const hooks = pending;
        pending = [];
        run(hooks);
      }
      return result;
    },
    afterCommit(fn: () => void): void {
      if (depth === 0) run([fn]);
      else pending.push(fn);
    },
  };
}
