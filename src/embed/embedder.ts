// What the rest of Rhizome knows about embeddings: batches in, unit vectors out.
export interface Embedder {
  /** Stable id recorded with every stored vector (changing it re-embeds everything). */
  readonly modelId: string;
  readonly dimension: number;
  /** `query`: someone is waiting (a search); goes ahead of `background` work (the default). */
  embed(texts: string[], priority?: 'query' | 'background'): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export type ModelState = 'loading' | 'ready' | 'error';
