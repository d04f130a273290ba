// USE-lite on onnxruntime's native CPU kernels: the same weights and the same vectors (to
// ~2e-6) as TF.js's WebAssembly backend, 4–9× less time per call here (measured alone: 9
// queries ~9 vs 56–65 ms, 1 query ~1.5 vs 14–18 ms). The graph is built in memory from the model package (graph.ts); the SentencePiece
// tokenizer is the model package's own (@energetic-ai/embeddings). onnxruntime's binding
// loads in one thread per process, so the caller decides who may use it (native-runtime.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { useLiteOnnx } from './graph.js';
import { useLiteFeeder } from './inputs.js';
import { loadUseLiteWeights, useLitePackageDir } from './weights.js';

type Ort = typeof import('onnxruntime-node');

export interface UseLiteOnnx {
  embed(texts: string[]): Promise<Float32Array[]>;
}

export async function loadUseLiteOnnx(): Promise<UseLiteOnnx> {
  const ort = createRequire(import.meta.url)('onnxruntime-node') as Ort;
  const { EmbeddingsModel } = await import('@energetic-ai/embeddings');
  const dir = useLitePackageDir();
  const weights = loadUseLiteWeights(dir);
  const vocabulary = JSON.parse(readFileSync(join(dir, 'vocab.json'), 'utf8'));
  // EmbeddingsModel only builds the tokenizer from the vocabulary; its TF.js model is unused.
  const tokenizer = new EmbeddingsModel({ vocabulary, model: null as never }).tokenizer as { encode(s: string): number[] };
  const session = await ort.InferenceSession.create(useLiteOnnx(weights), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Without the arena: 148 against 158 MB after 300 searches, measured alone; same speed.
    enableCpuMemArena: false,
  });
  // The session and the feeder hold their own copies: the shards' buffer (28 MB) can go.
  const feeds = useLiteFeeder(weights);
  return {
    async embed(texts) {
      const f = feeds(texts.map((t) => tokenizer.encode(t)));
      const out = await session.run({
        x0: new ort.Tensor('float32', f.x0, [f.batch, f.length, 256]),
        bias: new ort.Tensor('float32', f.bias, [f.batch, 1, 1, f.length]),
        poolw: new ort.Tensor('float32', f.poolw, [f.batch, f.length, 1]),
      });
      const data = out.embedding.data as Float32Array;
      return texts.map((_, i) => data.slice(i * 512, (i + 1) * 512));
    },
  };
}
