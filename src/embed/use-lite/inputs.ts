// The part of USE-lite's graph done in JS: SentencePiece ids → the graph's inputs. Mirrors
// the TF.js graph: ids past 128 are clipped, a token's row is 2·embedding + the timing
// signal (sin | cos of position × inverse timescales), padding rows are 0 with an attention
// bias of -1e9, and the pooling weight is 1/length on real tokens.
import { tensor, USE_SCOPE, type UseTensor } from './weights.js';

export const MAX_TOKENS = 128;
const WIDTH = 256;
const PAD_BIAS = -1e9;

export interface UseFeeds {
  batch: number;
  length: number;
  x0: Float32Array;
  bias: Float32Array;
  poolw: Float32Array;
}

/**
 * Feeds for batches of token ids. Keeps its own copies of the embedding table and the timing
 * signal of every position (computed once), so the weights' buffer can go once the graph is built.
 */
export function useLiteFeeder(weights: Map<string, UseTensor>): (tokenLists: number[][]) => UseFeeds {
  const emb = (tensor(weights, 'module/Embeddings_en').data as Float32Array).slice();
  const inv = tensor(weights, `${USE_SCOPE}Encode/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`).data as Float32Array;
  const half = inv.length;
  const timing = new Float32Array(MAX_TOKENS * WIDTH);
  for (let p = 0; p < MAX_TOKENS; p++) {
    for (let j = 0; j < half; j++) {
      const angle = Math.fround(p * inv[j]);
      timing[p * WIDTH + j] = Math.sin(angle);
      timing[p * WIDTH + half + j] = Math.cos(angle);
    }
  }
  return (tokenLists) => {
    const lists = tokenLists.map((t) => t.slice(0, MAX_TOKENS));
    const batch = lists.length;
    const length = Math.max(1, ...lists.map((t) => t.length));
    const x0 = new Float32Array(batch * length * WIDTH);
    const bias = new Float32Array(batch * length);
    const poolw = new Float32Array(batch * length);
    lists.forEach((ids, b) => {
      for (let p = 0; p < length; p++) {
        const row = b * length + p;
        if (p >= ids.length) {
          bias[row] = PAD_BIAS;
          continue;
        }
        poolw[row] = 1 / ids.length;
        const o = row * WIDTH;
        const e = ids[p] * WIDTH;
        const t = p * WIDTH;
        for (let j = 0; j < WIDTH; j++) x0[o + j] = emb[e + j] + Math.fround(emb[e + j] + timing[t + j]);
      }
    });
    return { batch, length, x0, bias, poolw };
  };
}
