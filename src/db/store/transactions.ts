// What the two engines' stores share about transactions: where the caller is (an
// AsyncLocalStorage frame, so a repository called at any depth of awaits inside withTx
// joins it), savepoints for nested units of work, the hooks run after the outermost commit,
// and those run when a part of it rolls back.
import { AsyncLocalStorage } from 'node:async_hooks';
import { outsideStatementScope } from './statement-scope.js';

/** One outermost transaction. */
export interface TxRoot<C> {
  /** The store it belongs to (a frame of another store's transaction is none of this one's). */
  owner: object;
  open: boolean;
  /** The engine's handle on it (PostgreSQL: the pooled client it holds). */
  conn: C;
  hooks: Array<() => void | Promise<void>>;
  /** Run when what registered them is rolled back (the whole transaction, or the savepoint around it). */
  undo: Array<() => void>;
}

export interface TxFrame<C> {
  root: TxRoot<C>;
  depth: number;
  /** Nested units of work started from this frame run one after another. */
  chain: Promise<unknown>;
}

/** The engine's statements for one transaction handle. */
export interface TxDriver<C> {
  begin(): Promise<C>;
  commit(conn: C): Promise<void>;
  rollback(conn: C): Promise<void>;
  /** After commit or rollback (PostgreSQL: the client goes back to the pool). */
  end(conn: C, failed: unknown): void;
  statement(conn: C, sql: string): Promise<void>;
}

// One per process: `detached()` must leave every store's transaction at once.
// biome-ignore lint/suspicious/noExplicitAny: frames of stores over different connection types
const als = new AsyncLocalStorage<TxFrame<any>>();

/**
 * Runs fn outside any transaction, whatever the caller is in, and outside the request's
 * statement scope. For work scheduled from inside one that must not join it (timers and
 * immediates inherit the caller's async context): the job queue's pump, background
 * refreshes. Without leaving the scope, a pump woken by a request ran every later job under
 * that request's client signal, so its client leaving cancelled the jobs' statements.
 */
export function detached<T>(fn: () => T): T {
  return als.exit(() => outsideStatementScope(fn));
}

export class Transactions<C> {
  private readonly als = als as AsyncLocalStorage<TxFrame<C>>;

  constructor(
    private readonly driver: TxDriver<C>,
    private readonly onHookError: (e: unknown) => void,
  ) {}

  /** The caller's open transaction frame, if any (a frame whose transaction ended is none). */
  frame(): TxFrame<C> | undefined {
    const f = this.als.getStore();
    return f?.root.open && f.root.owner === this ? f : undefined;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const f = this.frame();
    if (f) return this.nested(f, fn);
    const root: TxRoot<C> = { owner: this, open: true, conn: await this.driver.begin(), hooks: [], undo: [] };
    let result: T;
    let failed: unknown;
    try {
      const frame: TxFrame<C> = { root, depth: 0, chain: Promise.resolve() };
      result = await this.als.run(frame, fn);
      await settled(frame); // a unit of work started inside and not awaited still belongs to it
      await this.driver.commit(root.conn);
    } catch (e) {
      failed = e ?? new Error('transaction failed');
      await this.driver.rollback(root.conn).catch(() => {});
      undo(root, 0);
      throw e;
    } finally {
      root.open = false;
      this.driver.end(root.conn, failed);
    }
    await this.runHooks(root.hooks);
    return result;
  }

  afterCommit(fn: () => void | Promise<void>): void {
    const f = this.frame();
    if (f) f.root.hooks.push(fn);
    else void this.runHooks([fn]);
  }

  afterRollback(fn: () => void): void {
    this.frame()?.root.undo.push(fn);
  }

  private nested<T>(f: TxFrame<C>, fn: () => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      // The enclosing transaction ended while this one waited its turn (its caller did not
      // await it): it runs as a transaction of its own.
      if (!f.root.open) return this.als.exit(() => this.run(fn));
      const depth = f.depth + 1;
      const sp = `rz_sp${depth}`;
      const mark = f.root.hooks.length;
      const undoMark = f.root.undo.length;
      await this.driver.statement(f.root.conn, `SAVEPOINT ${sp}`);
      try {
        const inner: TxFrame<C> = { root: f.root, depth, chain: Promise.resolve() };
        const r = await this.als.run(inner, fn);
        await settled(inner);
        await this.driver.statement(f.root.conn, `RELEASE SAVEPOINT ${sp}`);
        return r;
      } catch (e) {
        if (f.root.open) {
          await this.driver.statement(f.root.conn, `ROLLBACK TO SAVEPOINT ${sp}`).catch(() => {});
          await this.driver.statement(f.root.conn, `RELEASE SAVEPOINT ${sp}`).catch(() => {});
        }
        f.root.hooks.length = mark; // what the failed part scheduled never happened
        undo(f.root, undoMark);
        throw e;
      }
    };
    const p = f.chain.then(run, run);
    f.chain = p.catch(() => {});
    return p;
  }

  private async runHooks(hooks: Array<() => void | Promise<void>>): Promise<void> {
    for (const h of hooks) {
      try {
        await h();
      } catch (e) {
        this.onHookError(e);
      }
    }
  }
}

/** Runs (and forgets) the rollback hooks registered from `mark` on, latest first. */
function undo<C>(root: TxRoot<C>, mark: number): void {
  for (const fn of root.undo.splice(mark).reverse()) fn();
}

/** Waits until the nested units of work started from this frame (and any they started) are done. */
async function settled<C>(f: TxFrame<C>): Promise<void> {
  let c: Promise<unknown>;
  do {
    c = f.chain;
    await c;
  } while (c !== f.chain);
}

/** What both stores answer alike about transactions, from their Transactions. */
export abstract class TransactionalStore<C> {
  protected abstract readonly tx: Transactions<C>;

  /** Whether the caller is inside an open transaction of this store. */
  get inTransaction(): boolean {
    return this.tx.frame() !== undefined;
  }

  async withTx<T>(fn: () => Promise<T>): Promise<T> {
    return await this.tx.run(fn);
  }

  afterCommit(fn: () => void | Promise<void>): void {
    this.tx.afterCommit(fn);
  }

  /** Runs fn if the caller's transaction, or the savepoint it is in, rolls back (nothing outside one): for state kept beside the database that must follow it back. */
  afterRollback(fn: () => void): void {
    this.tx.afterRollback(fn);
  }
}
