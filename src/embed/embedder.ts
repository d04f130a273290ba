// What the rest of Rhizome knows about embeddings: batches in, unit vectors out.
export interface Embedder {
  /** Stable id recorded with every stored vector (changing it re-embeds everything). */
  readonly modelId: string;
  readonly dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export type ModelState = 'loading' | 'ready' | 'error';

export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
