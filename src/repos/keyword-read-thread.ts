// The main thread's side of keyword-read-worker.ts: starts the reader thread when a long
// read first needs it, hands it reads in order, and ends it once idle for
// IDLE_MS (a thread and its connection cost memory; the warm-up is occasional). A thread
// that fails to start or dies rejects what was asked of it; the caller reads on its own
// connection instead.
import { Worker } from 'node:worker_threads';
import { distPath } from '../paths.js';
import type { TermCount } from '../search/keyword/source.js';
import type { ReadReply, ReadRequest } from './keyword-read-worker.js';

export const IDLE_MS = 5_000;

export interface ThreadPostings {
  seqs: Int32Array;
  wtf: Float64Array;
}

export class KeywordReadThread {
  private worker?: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: ReadReply) => void; reject: (e: Error) => void }>();
  private idle?: NodeJS.Timeout;
  private closed = false;
  /** The postings read last: the next is sent once it has been taken (read()). */
  private reads: Promise<void> = Promise.resolve();
  /** Reads answered (tests, the bench). */
  served = 0;

  constructor(private readonly path: string) {}

  /** Every node's length in FTS5 table `table` (seqs ascending), read in the thread. */
  async lengths(table: string): Promise<{ seqs: Int32Array; lens: Uint32Array }> {
    return ((await this.ask({ id: 0, table, op: 'lengths' })) as { lengths: { seqs: Int32Array; lens: Uint32Array } }).lengths;
  }

  /** The terms of FTS5 table `table` held by at least `minDf` nodes, read in the thread. */
  async terms(table: string, minDf: number): Promise<TermCount[]> {
    return ((await this.ask({ id: 0, table, op: 'terms', minDf })) as { terms: TermCount[] }).terms;
  }

  /**
   * Each term's postings in FTS5 table `table`, read in the thread: views of memory the
   * thread shares, valid until the caller's next await (reads are sent one at a time, the
   * next only a turn after the last one's caller resumed).
   */
  read(table: string, terms: string[]): Promise<ThreadPostings[]> {
    const read = this.reads.then(async () => {
      const { postings: p } = (await this.ask({ id: 0, table, op: 'postings', terms })) as { postings: { seqs: Int32Array; wtf: Float64Array; spans: [number, number][] } };
      return p.spans.map(([at, n]) => ({ seqs: p.seqs.subarray(at, at + n), wtf: p.wtf.subarray(at, at + n) }));
    });
    const next = () => new Promise<void>((resolve) => setImmediate(resolve));
    this.reads = read.then(next, next);
    return read;
  }

  private ask(request: ReadRequest): Promise<ReadReply> {
    if (this.closed) return Promise.reject(new Error('keyword reader closed'));
    const w = this.thread();
    clearTimeout(this.idle);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.postMessage({ ...request, id } satisfies ReadRequest);
    });
  }

  /** Ends the thread; what was asked of it is rejected. */
  async close(): Promise<void> {
    this.closed = true;
    await this.end(true);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(distPath('keyword-read-worker.js'), { workerData: { path: this.path } });
    w.unref(); // never what keeps the process alive
    w.on('message', (m: ReadReply) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if ('error' in m) p?.reject(new Error(m.error));
      else {
        this.served++;
        p?.resolve(m);
      }
      if (this.pending.size === 0) this.idle = setTimeout(() => void this.end(), IDLE_MS).unref();
    });
    const gone = (e: Error) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    w.on('error', gone);
    w.on('exit', (code) => gone(new Error(`keyword reader exited (${code})`)));
    this.worker = w;
    return w;
  }

  private async end(force = false): Promise<void> {
    clearTimeout(this.idle);
    const w = this.worker;
    if (!w || (this.pending.size && !force)) return;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('keyword reader closed'));
    this.pending.clear();
    await w.terminate();
  }
}
