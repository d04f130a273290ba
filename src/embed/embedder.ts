// What the rest of Rhizome knows about embeddings: batches in, unit vectors out.
export interface Embedder {
  /** Stable id recorded with every stored vector (changing it re-embeds everything). */
  readonly modelId: string;
  readonly dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export type ModelState = 'loading' | 'ready' | 'error';
