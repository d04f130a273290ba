// Main-thread side of one embedding worker thread. A worker that dies (an error inside the
// model library, a crash) fails the calls in flight at once and is started again, so no
// caller hangs and the next call is served; one that never managed to load the model is not
// restarted (its error is the worker's state). Which texts go to which worker, and when, is
// the scheduler's business (worker-embedder.ts).
import { Worker } from 'node:worker_threads';
import { distPath } from '../paths.js';
import type { ModelState } from './embedder.js';
import { claimNativeRuntime } from './native-runtime.js';
import type { ModelSpec, WorkerModelSpec } from './providers.js';

type Pending = { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void };

/** Restarts allowed within RESTART_WINDOW_MS before the embedder gives up (a crash loop). */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** The longest close() waits for a model still loading. */
const CLOSE_WAIT_MS = 15_000;

export interface ModelWorkerOptions {
  /** Nice value for the worker thread (Linux: per thread): background embedding yields the CPU. */
  nice?: number;
  onProgress?: (line: string) => void;
  /** After every successful (re)load. */
  onReady?: () => void;
  /** When the worker gives up for good (load failure, crash loop). */
  onFail?: (error: string) => void;
}

export class ModelWorker {
  modelId = '';
  dimension = 0;
  /** What runs the model once loaded ('onnxruntime', 'tfjs-wasm', 'transformers.js'). */
  runtime = '';
  state: ModelState = 'loading';
  error: string | undefined;
  private worker!: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closing = false;
  private restarts: number[] = [];
  /** Resolves when the current worker has loaded the model. */
  ready!: Promise<void>;

  /** Calls in flight. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  constructor(
    private readonly spec: ModelSpec,
    private readonly opts: ModelWorkerOptions = {},
  ) {
    this.spawn();
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    await this.ready;
    if (texts.length === 0) return [];
    const id = this.nextId++;
    this.worker.ref(); // keep the process alive while work is in flight
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, texts });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    // A worker terminated while onnxruntime sets itself up in it aborts the whole process
    // (a native error thrown through the teardown): a load under way finishes, or fails, first.
    if (this.state === 'loading') await Promise.race([this.ready.catch(() => {}), new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
    await this.worker.terminate();
    this.rejectPending('embedder closed');
  }

  private spawn(): void {
    // onnxruntime loads in one thread per process: the first worker to ask gets it.
    const native = this.spec.model === 'use-lite' ? this.spec.runtime !== 'tfjs' && claimNativeRuntime() : claimNativeRuntime();
    const workerData: WorkerModelSpec & { nice: number } = { ...this.spec, native, nice: this.opts.nice ?? 0 };
    const worker = new Worker(distPath('embed-worker.js'), { workerData });
    this.worker = worker;
    worker.unref();
    let loaded = false;
    this.ready = new Promise((resolve, reject) => {
      worker.on('message', (m) => {
        if (m.type === 'progress') this.opts.onProgress?.(m.line);
        else if (m.type === 'ready') {
          loaded = true;
          this.modelId = m.modelId;
          this.dimension = m.dimension;
          this.runtime = m.runtime;
          this.state = 'ready';
          this.error = undefined;
          resolve();
          this.opts.onReady?.();
        } else if (m.type === 'fatal') {
          this.fail(m.error);
          reject(new Error(`embedding model failed to load: ${m.error}`));
        } else if (m.type === 'result') {
          const p = this.pending.get(m.id);
          this.pending.delete(m.id);
          if (this.pending.size === 0) worker.unref();
          if (m.error) p?.reject(new Error(m.error));
          else p?.resolve(m.vectors.map((v: Float32Array) => new Float32Array(v.buffer, v.byteOffset, v.length)));
        }
      });
      // An error thrown inside the model library (not caught by the worker's own handler)
      // ends the worker: before the model loaded, that is a load failure.
      worker.on('error', (e) => {
        if (!loaded) {
          this.fail(e.message);
          reject(new Error(`embedding model failed to load: ${e.message}`));
        }
      });
      worker.on('exit', (code) => {
        if (this.closing || worker !== this.worker) return;
        this.rejectPending(`the embedding worker stopped (exit code ${code}); the call can be retried`);
        if (!loaded) {
          if (this.state !== 'error') this.fail(`the embedding worker stopped while loading the model (exit code ${code})`);
          reject(new Error(this.error));
          return;
        }
        const now = Date.now();
        this.restarts = [...this.restarts.filter((t) => now - t < RESTART_WINDOW_MS), now];
        if (this.restarts.length > MAX_RESTARTS) return this.fail(`the embedding worker stopped ${MAX_RESTARTS + 1} times within a minute; not restarting it`);
        this.state = 'loading';
        this.spawn();
      });
    });
    this.ready.catch(() => {}); // surfaced through state/error and embed()
  }

  private rejectPending(msg: string): void {
    for (const p of this.pending.values()) p.reject(new Error(msg));
    this.pending.clear();
  }

  private fail(msg: string): void {
    this.state = 'error';
    this.error = msg;
    this.rejectPending(msg);
    this.ready = Promise.reject(new Error(msg));
    this.ready.catch(() => {});
    this.opts.onFail?.(msg);
  }
}
