// Which texts go to which model worker, and when. A semantic search waits for its query
// vector, so queries jump ahead of background embedding (new notes, captures, PARA), and the
// queries waiting while a worker is busy go in one model call (a batch of 16 short texts
// costs about 3× one text, not 16×). Background requests are cut into chunks, so a query
// waits for at most one small chunk, never for a batch of 32 long notes. With a dedicated
// background lane (a second, lower-priority worker) the foreground lane serves queries only.
// `fifo` is the behaviour before any of this: whole requests in arrival order.

export type Priority = 'query' | 'background';

/** One model worker as the scheduler sees it. */
export interface Lane {
  /** True while a call is in flight. */
  readonly busy: boolean;
  /** True once the model has loaded (a lane still loading is skipped). */
  readonly ready: boolean;
  run(texts: string[]): Promise<Float32Array[]>;
}

export interface SchedulerOptions {
  /** 'priority' (default) or 'fifo'. */
  policy: 'priority' | 'fifo';
  /** Most query texts in one model call. */
  maxQueryBatch: number;
  /**
   * A query that finds the model idle waits this long for others to join its call (searches
   * from several clients arrive a few ms apart; one call for all costs little more than one).
   */
  queryWindowMs: number;
  /** A background chunk on a lane that also serves queries: at most this many texts ... */
  sharedChunkTexts: number;
  /** ... and about this many characters (always at least one text). */
  sharedChunkChars: number;
  /** A background chunk on a background-only lane. */
  backgroundChunkTexts: number;
  /** On the shared lane, background work waits while queries came within this many ms ... */
  queryQuietMs: number;
  /** ... but never longer than this since its last chunk (no starvation). */
  maxBackgroundWaitMs: number;
}

export const DEFAULT_SCHEDULER: SchedulerOptions = {
  policy: 'priority',
  maxQueryBatch: 32,
  queryWindowMs: 3,
  sharedChunkTexts: 2,
  sharedChunkChars: 800,
  backgroundChunkTexts: 32,
  queryQuietMs: 150,
  maxBackgroundWaitMs: 1000,
};

interface QueryItem {
  text: string;
  resolve: (v: Float32Array) => void;
  reject: (e: Error) => void;
}

interface Request {
  texts: string[];
  out: Float32Array[];
  /** Index of the next text to hand out. */
  next: number;
  /** Texts handed out and not yet back. */
  outstanding: number;
  failed: boolean;
  resolve: (v: Float32Array[]) => void;
  reject: (e: Error) => void;
}

export class EmbedScheduler {
  private queries: QueryItem[] = [];
  private requests: Request[] = [];
  /** Query texts embedded, and model calls made for them (for the batching figure). */
  readonly stats = { queryTexts: 0, queryCalls: 0, backgroundChunks: 0 };
  private lastQueryAt = -Infinity;
  private lastChunkAt = -Infinity;
  /** When the waiting background work started waiting (its first request, after none). */
  private waitingSince = -Infinity;
  private wakeUp: NodeJS.Timeout | undefined;
  private queryWindow: NodeJS.Timeout | undefined;

  constructor(
    /** Lane 0 serves queries; any further lane is background-only. */
    private readonly lanes: () => Lane[],
    private readonly o: SchedulerOptions = DEFAULT_SCHEDULER,
    private readonly now: () => number = () => performance.now(),
  ) {}

  submit(texts: string[], priority: Priority): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    if (priority === 'query' && this.o.policy === 'priority') {
      this.lastQueryAt = this.now();
      const done = Promise.all(texts.map((text) => new Promise<Float32Array>((resolve, reject) => this.queries.push({ text, resolve, reject }))));
      const idle = this.lanes()[0];
      if (this.o.queryWindowMs > 0 && idle && !idle.busy && !this.queryWindow) {
        this.queryWindow = setTimeout(() => {
          this.queryWindow = undefined;
          this.dispatch();
        }, this.o.queryWindowMs);
      } else this.dispatch();
      return done;
    }
    if (!this.backgroundWaiting) this.waitingSince = this.now();
    return new Promise((resolve, reject) => {
      this.requests.push({ texts, out: new Array(texts.length), next: 0, outstanding: 0, failed: false, resolve, reject });
      this.dispatch();
    });
  }

  /** Whether background work is waiting (the embedder starts a background lane for it). */
  get backgroundWaiting(): boolean {
    return this.requests.some((r) => r.next < r.texts.length);
  }

  /** Fails everything queued (the embedder is closing or its model failed for good). */
  failAll(e: Error): void {
    clearTimeout(this.queryWindow);
    this.queryWindow = undefined;
    clearTimeout(this.wakeUp);
    this.wakeUp = undefined;
    for (const q of this.queries.splice(0)) q.reject(e);
    for (const r of this.requests.splice(0)) if (!r.failed) r.reject(e);
  }

  /** Gives every idle lane its next piece of work. Called on submit and whenever a call ends. */
  dispatch(): void {
    const lanes = this.lanes();
    lanes.forEach((lane, i) => {
      if (lane.busy || !lane.ready) return;
      if (this.o.policy === 'fifo') return i === 0 ? this.sendChunk(lane, Infinity, Infinity) : undefined;
      if (i === 0 && this.queries.length) return this.queryWindow ? undefined : this.sendQueries(lane);
      const dedicated = lanes.slice(1).some((l) => l.ready);
      if (i === 0 && dedicated) return; // the foreground lane stays free for the next query
      if (i === 0) {
        if (this.backgroundWaiting && this.holdBackground()) return;
        this.sendChunk(lane, this.o.sharedChunkTexts, this.o.sharedChunkChars);
      } else this.sendChunk(lane, this.o.backgroundChunkTexts, Infinity);
    });
  }

  /**
   * While searches are arriving, the shared lane keeps itself for them: background work
   * waits until queries have been quiet for `queryQuietMs`, or until it has waited
   * `maxBackgroundWaitMs` (since its last chunk, or since it started waiting). Returns true when it must wait (a timer
   * dispatches again when the wait is over).
   */
  private holdBackground(): boolean {
    const now = this.now();
    const quietAt = this.lastQueryAt + this.o.queryQuietMs;
    const dueAt = Math.max(this.lastChunkAt, this.waitingSince) + this.o.maxBackgroundWaitMs;
    if (now >= quietAt || now >= dueAt) return false;
    if (!this.wakeUp) {
      this.wakeUp = setTimeout(() => {
        this.wakeUp = undefined;
        this.dispatch();
      }, Math.max(1, Math.min(quietAt, dueAt) - now));
      // Not unref'd: background work is waiting on this timer, and nothing else may hold the
      // process open meanwhile (a batch script's top-level await ended with exit code 13).
    }
    return true;
  }

  private sendQueries(lane: Lane): void {
    const batch = this.queries.splice(0, this.o.maxQueryBatch);
    this.stats.queryTexts += batch.length;
    this.stats.queryCalls++;
    lane.run(batch.map((q) => q.text)).then(
      (vectors) => batch.forEach((q, i) => q.resolve(vectors[i])),
      (e: Error) => batch.forEach((q) => q.reject(e)),
    ).finally(() => this.dispatch());
  }

  /** Hands out the next texts of the oldest background request (whole, in fifo). */
  private sendChunk(lane: Lane, maxTexts: number, maxChars: number): void {
    const r = this.requests.find((x) => x.next < x.texts.length);
    if (!r) return;
    const start = r.next;
    let chars = 0;
    let end = start;
    while (end < r.texts.length && end - start < maxTexts && (end === start || chars + r.texts[end].length <= maxChars)) chars += r.texts[end++].length;
    r.next = end;
    r.outstanding += end - start;
    this.stats.backgroundChunks++;
    this.lastChunkAt = this.now();
    lane.run(r.texts.slice(start, end)).then(
      (vectors) => {
        vectors.forEach((v, i) => (r.out[start + i] = v));
        r.outstanding -= end - start;
        if (!r.failed && r.next === r.texts.length && r.outstanding === 0) this.finish(r, null);
      },
      (e: Error) => this.finish(r, e),
    ).finally(() => this.dispatch());
  }

  private finish(r: Request, e: Error | null): void {
    if (r.failed) return;
    this.requests = this.requests.filter((x) => x !== r);
    if (e) {
      r.failed = true;
      r.reject(e);
    } else r.resolve(r.out);
  }
}
