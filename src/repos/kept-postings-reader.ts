// Runs reads of kept postings in the keyword worker thread (kept-postings-worker.ts), one
// at a time. The worker starts on first use and stops after IDLE_MS without reads (a
// thread's V8 heap holds memory between reads that may be minutes apart) or on close().
// A read that cannot run there (no built worker, a database in memory, the worker
// failing) resolves null: the caller reads on the main thread instead.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { distPath } from '../paths.js';
import type { ReadOutcome } from './kept-postings-read.js';
import type { ReadReply, ReadRequest } from './kept-postings-worker.js';

const IDLE_MS = 10_000;

export class KeptPostingsReader {
  private worker?: Worker;
  private idle?: NodeJS.Timeout;
  private next = 1;
  private readonly waiting = new Map<number, (r: ReadOutcome | null) => void>();
  private broken = false;

  /** Whether reads can go to the worker (a file database and a built worker). */
  static usable(dbPath: string, inMemory: boolean): boolean {
    return !inMemory && dbPath !== '' && existsSync(dbPath) && existsSync(distPath('keyword-worker.js'));
  }

  read(req: Omit<ReadRequest, 'id'>): Promise<ReadOutcome | null> {
    if (this.broken) return Promise.resolve(null);
    const w = this.start();
    if (!w) return Promise.resolve(null);
    const id = this.next++;
    clearTimeout(this.idle);
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      w.ref();
      w.postMessage({ ...req, id } satisfies ReadRequest);
    });
  }

  private start(): Worker | null {
    if (this.worker) return this.worker;
    try {
      const w = new Worker(distPath('keyword-worker.js'));
      w.on('message', (m: ReadReply) => {
        const done = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (this.waiting.size === 0) {
          w.unref();
          clearTimeout(this.idle);
          this.idle = setTimeout(() => this.stopIdle(w), IDLE_MS);
          this.idle.unref();
        }
        done?.(m.ok ? m.outcome : null);
      });
      const fail = () => {
        this.broken = true;
        this.worker = undefined;
        for (const done of this.waiting.values()) done(null);
        this.waiting.clear();
      };
      w.on('error', fail);
      w.on('exit', () => {
        if (this.worker === w) fail();
      });
      w.unref();
      this.worker = w;
      return w;
    } catch {
      this.broken = true;
      return null;
    }
  }

  /** Stops an idle worker; the next read starts another. */
  private stopIdle(w: Worker): void {
    if (this.worker !== w || this.waiting.size > 0) return;
    this.worker = undefined;
    void w.terminate();
  }

  /** Stops the worker; a read under way resolves null. */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const w = this.worker;
    this.worker = undefined;
    this.broken = true;
    for (const done of this.waiting.values()) done(null);
    this.waiting.clear();
    if (w) await w.terminate();
  }
}
