// A deterministic, in-process embedder for unit tests: hashed word and character-trigram
// features. Similar wording gives similar vectors; it carries no real meaning.
import { createHash } from 'node:crypto';
import { normalize } from '../vectors/math.js';
import type { Embedder } from './embedder.js';

export class HashEmbedder implements Embedder {
  readonly modelId: string;
  constructor(readonly dimension = 64) {
    this.modelId = `hash-${dimension}`;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.one(t));
  }
  async close(): Promise<void> {}

  private one(text: string): Float32Array {
    const v = new Float32Array(this.dimension);
    const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const add = (f: string, w: number) => {
      const h = createHash('md5').update(f).digest();
      v[h.readUInt32LE(0) % this.dimension] += h[4] & 1 ? w : -w;
    };
    for (const w of words) {
      add(`w:${w}`, 1);
      for (let i = 0; i + 3 <= w.length; i++) add(`t:${w.slice(i, i + 3)}`, 0.3);
    }
    if (words.length === 0) v[0] = 1;
    return normalize(v);
  }
}
