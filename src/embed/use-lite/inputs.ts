// The part of USE-lite's graph done in JS: SentencePiece ids → the graph's inputs. Mirrors
// the TF.js graph: ids past 128 are clipped, a token's row is 2·embedding + the timing
// signal (sin | cos of position × inverse timescales), padding rows are 0 with an attention
// bias of -1e9, and the pooling weight is 1/length on real tokens.
import { tensor, type UseTensor } from './weights.js';

const P = 'module_apply_default/Encoder_en/KonaTransformer/';
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

export function useLiteFeeds(weights: Map<string, UseTensor>, tokenLists: number[][]): UseFeeds {
  const emb = tensor(weights, 'module/Embeddings_en').data as Float32Array;
  const inv = tensor(weights, `${P}Encode/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`).data as Float32Array;
  const half = inv.length;
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
      for (let j = 0; j < half; j++) {
        const angle = Math.fround(p * inv[j]);
        x0[o + j] = Math.fround(emb[e + j] + Math.fround(emb[e + j] + Math.fround(Math.sin(angle))));
        x0[o + half + j] = Math.fround(emb[e + half + j] + Math.fround(emb[e + half + j] + Math.fround(Math.cos(angle))));
      }
    }
  });
  return { batch, length, x0, bias, poolw };
}
