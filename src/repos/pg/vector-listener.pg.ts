// Several processes on one PostgreSQL each hold in-memory vector indexes; this keeps them
// coherent with the others' writes. A trigger on node_vectors (PostgreSQL schema step 10)
// sends `NOTIFY rhizome_vectors, '<tenant> <u|d> <seq> <node id>'` for every row written or
// deleted; NOTIFY is delivered on commit only, in commit order, so no process sees an
// uncommitted vector. This listener holds its own (asynchronous) connection and hands each
// batch of changes to the vector store. Notifications sent while it is disconnected are
// lost: after a reconnect it reports a gap, and the store reloads what it holds (the
// catch-up). Its own process's writes come back too; applying them again is harmless.
import type { Logger } from '../../logger.js';
import { connectPg, type PgClient } from '../../db/pg/connect.js';

export const VECTOR_CHANNEL = 'rhizome_vectors';

export interface VectorChange {
  tenantId: string;
  op: 'u' | 'd';
  seq: number;
  nodeId: string;
}

export function parseVectorChange(payload: string): VectorChange | null {
  const m = /^(\S+) ([ud]) (\d+) ?(\S*)$/.exec(payload);
  return m ? { tenantId: m[1], op: m[2] as 'u' | 'd', seq: Number(m[3]), nodeId: m[4] } : null;
}

export interface VectorListenerDeps {
  url: string;
  log: Logger;
  /** Changes since the last call, in commit order. */
  onChanges(changes: VectorChange[]): Promise<void>;
  /** Notifications may have been missed (the connection was lost): reload what is held. */
  onGap(): void;
}

export class PgVectorListener {
  private client: PgClient | null = null;
  private stopped = false;
  private pending: VectorChange[] = [];
  private flushQueued = false;
  private retryMs = 500;
  private connected: Promise<void> | undefined;

  constructor(private readonly d: VectorListenerDeps) {}

  /** Connects and listens; resolves once listening (or once the first attempt failed: it keeps retrying). */
  start(): Promise<void> {
    return (this.connected ??= this.connect(false));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => {});
  }

  private async connect(afterLoss: boolean): Promise<void> {
    if (this.stopped) return;
    try {
      const c = await connectPg(this.d.url);
      c.on('notification', (msg) => {
        const change = msg.channel === VECTOR_CHANNEL && msg.payload ? parseVectorChange(msg.payload) : null;
        if (change) this.enqueue(change);
      });
      c.on('error', () => this.lost(c));
      c.on('end', () => this.lost(c));
      await c.query(`LISTEN ${VECTOR_CHANNEL}`);
      if (this.stopped) {
        await c.end().catch(() => {});
        return;
      }
      this.client = c;
      this.retryMs = 500;
      if (afterLoss) {
        this.d.log.info('vector notifications: listening again; reloading the indexes held (changes may have been missed)');
        this.d.onGap();
      }
    } catch (e) {
      if (!afterLoss) this.d.log.error('vector notifications: cannot listen yet, retrying', e);
      this.retry();
    }
  }

  private lost(c: PgClient): void {
    if (this.client !== c || this.stopped) return;
    this.client = null;
    c.end().catch(() => {});
    this.d.log.info('vector notifications: connection lost, reconnecting');
    this.retry();
  }

  private retry(): void {
    if (this.stopped) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
    setTimeout(() => void this.connect(true), wait).unref();
  }

  /** Notifications arrive one by one; the store gets them in batches, once per turn. */
  private enqueue(change: VectorChange): void {
    this.pending.push(change);
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(() => {
      this.flushQueued = false;
      const batch = this.pending;
      this.pending = [];
      this.d.onChanges(batch).catch((e) => {
        this.d.log.error('vector notifications: applying changes failed; reloading the indexes held', e);
        this.d.onGap();
      });
    });
  }
}
