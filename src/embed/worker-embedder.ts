// The embedder the server uses: the model in worker threads, off the event loop. One
// foreground worker is always there (queries first, see embed-scheduler.ts). With
// `workers: 2`, a second worker at a lower CPU priority is started while background work
// is waiting and stopped after a quiet spell, so a long ingestion never holds a search up
// and the idle server keeps one model's memory.
import { availableParallelism } from 'node:os';
import type { Embedder, ModelState } from './embedder.js';
import { DEFAULT_SCHEDULER, EmbedScheduler, type Lane, type Priority } from './embed-scheduler.js';
import { ModelWorker } from './model-worker.js';
import type { ModelSpec } from './providers.js';

export interface WorkerEmbedderOptions {
  /** 1, or 2 for a background worker on demand. Default 1. */
  workers?: number;
  /** 'priority' (default) or 'fifo' (whole requests in arrival order, for comparison). */
  scheduling?: 'priority' | 'fifo';
  /** How long the background worker may sit idle before it is stopped. */
  backgroundIdleMs?: number;
  onProgress?: (line: string) => void;
}

/**
 * Workers to use for a model when the user did not say. A second one needs spare cores:
 * on 2 cores the load bench measured it slower than one worker with priorities (the main
 * thread, the query worker and the background worker fight over two cores), so it starts
 * from 4. The model must also load twice in one process, which onnxruntime's native binding
 * cannot: a transformers.js model never gets a second worker, and USE-lite's second worker
 * runs it on TF.js (same vectors; native-runtime.ts).
 */
export function defaultWorkers(model: string): number {
  return model === 'use-lite' && availableParallelism() >= 4 ? 2 : 1;
}

const NICE_BACKGROUND = 10;

class WorkerLane implements Lane {
  constructor(readonly worker: ModelWorker) {}
  get busy() {
    return this.worker.busy;
  }
  get ready() {
    return this.worker.state === 'ready';
  }
  run(texts: string[]) {
    return this.worker.embed(texts);
  }
}

export class WorkerEmbedder implements Embedder {
  private readonly foreground: WorkerLane;
  private background: WorkerLane | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly scheduler: EmbedScheduler;
  private closed = false;

  constructor(
    private readonly spec: ModelSpec,
    private readonly opts: WorkerEmbedderOptions = {},
  ) {
    this.foreground = new WorkerLane(
      new ModelWorker(spec, {
        onProgress: opts.onProgress,
        onReady: () => this.scheduler?.dispatch(), // after a restart, queued work goes on
        onFail: (e) => this.scheduler?.failAll(new Error(e)),
      }),
    );
    this.scheduler = new EmbedScheduler(() => (this.background ? [this.foreground, this.background] : [this.foreground]), {
      ...DEFAULT_SCHEDULER,
      policy: opts.scheduling ?? 'priority',
    });
  }

  get modelId() {
    return this.foreground.worker.modelId;
  }
  get dimension() {
    return this.foreground.worker.dimension;
  }
  /** What runs the foreground model ('onnxruntime', 'tfjs-wasm', 'transformers.js'). */
  get runtime() {
    return this.foreground.worker.runtime;
  }
  get state(): ModelState {
    return this.foreground.worker.state;
  }
  get error() {
    return this.foreground.worker.error;
  }
  /** Resolves when the model has loaded (rejects if it never does). */
  get ready(): Promise<void> {
    return this.foreground.worker.ready;
  }
  /** Batching and scheduling counters, for the load bench. */
  get stats() {
    return { ...this.scheduler.stats, backgroundWorker: this.background !== undefined };
  }

  async embed(texts: string[], priority: Priority = 'background'): Promise<Float32Array[]> {
    await this.ready;
    if (this.closed) throw new Error('embedder closed');
    const done = this.scheduler.submit(texts, priority);
    if (priority === 'background') this.wantBackgroundLane();
    return done;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.scheduler.failAll(new Error('embedder closed'));
    await Promise.all([this.foreground.worker.close(), this.background?.worker.close()]);
  }

  /** Starts the background worker when allowed and work is waiting; stops it once idle. */
  private wantBackgroundLane(): void {
    if ((this.opts.workers ?? 1) < 2 || (this.opts.scheduling ?? 'priority') === 'fifo' || this.closed) return;
    if (!this.background) {
      const worker = new ModelWorker(this.spec, { nice: NICE_BACKGROUND, onReady: () => this.scheduler.dispatch() });
      this.background = new WorkerLane(worker);
      // Once loaded it takes the background work; if it cannot load, the foreground lane
      // keeps doing it as before.
      worker.ready.catch(() => this.retireBackground());
    }
    this.armIdleTimer();
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.background?.busy || this.scheduler.backgroundWaiting) return this.armIdleTimer();
      this.retireBackground();
    }, this.opts.backgroundIdleMs ?? 30_000);
    this.idleTimer.unref();
  }

  private retireBackground(): void {
    const lane = this.background;
    if (!lane) return;
    this.background = undefined;
    void lane.worker.close();
    this.scheduler.dispatch();
  }
}
