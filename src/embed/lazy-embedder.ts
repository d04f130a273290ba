// Starts the embedding worker only when something is embedded (admin CLI commands rarely do).
import type { Embedder, ModelState } from './embedder.js';
import type { ModelSpec } from './providers.js';
import { WorkerEmbedder } from './worker-embedder.js';

export class LazyEmbedder implements Embedder {
  private inner: WorkerEmbedder | undefined;
  constructor(private readonly spec: ModelSpec) {}
  get modelId() {
    return this.inner?.modelId ?? '';
  }
  get dimension() {
    return this.inner?.dimension ?? 0;
  }
  get state(): ModelState {
    return this.inner?.state ?? 'loading';
  }
  async embed(texts: string[], priority?: 'query' | 'background'): Promise<Float32Array[]> {
    this.inner ??= new WorkerEmbedder(this.spec);
    return this.inner.embed(texts, priority);
  }
  async close(): Promise<void> {
    await this.inner?.close();
  }
}
