// Main-thread side of the embedding worker.
import { Worker } from 'node:worker_threads';
import { distPath } from '../paths.js';
import type { Embedder, ModelState } from './embedder.js';
import type { ModelSpec } from './providers.js';

type Pending = { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void };

export class WorkerEmbedder implements Embedder {
  modelId = '';
  dimension = 0;
  state: ModelState = 'loading';
  error: string | undefined;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  readonly ready: Promise<void>;

  constructor(spec: ModelSpec, onProgress: (line: string) => void = () => {}) {
    this.worker = new Worker(distPath('embed-worker.js'), { workerData: spec });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (m) => {
        if (m.type === 'progress') onProgress(m.line);
        else if (m.type === 'ready') {
          this.modelId = m.modelId;
          this.dimension = m.dimension;
          this.state = 'ready';
          resolve();
        } else if (m.type === 'fatal') {
          this.fail(m.error);
          reject(new Error(`embedding model failed to load: ${m.error}`));
        } else if (m.type === 'result') {
          const p = this.pending.get(m.id);
          this.pending.delete(m.id);
          if (this.pending.size === 0) this.worker.unref();
          if (m.error) p?.reject(new Error(m.error));
          else p?.resolve(m.vectors.map((v: Float32Array) => new Float32Array(v.buffer, v.byteOffset, v.length)));
        }
      });
      // An error thrown inside the model library (not caught by the worker's own handler)
      // ends the worker: report it like a load failure if it happens before ready.
      this.worker.on('error', (e) => {
        this.fail(e.message);
        reject(new Error(`embedding model failed to load: ${e.message}`));
      });
    });
    this.ready.catch(() => {}); // surfaced through state/error and embed()
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
    await this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new Error('embedder closed'));
    this.pending.clear();
  }

  private fail(msg: string): void {
    this.state = 'error';
    this.error = msg;
    for (const p of this.pending.values()) p.reject(new Error(msg));
    this.pending.clear();
  }
}
