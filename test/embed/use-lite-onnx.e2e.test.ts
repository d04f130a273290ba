// USE-lite on onnxruntime (the default) against the same model on TF.js, the runtime it
// replaces: the graph built from the package's weights must give TF.js's vectors, for short
// queries, long notes (clipped at 128 tokens), punctuation and non-Latin text, in batches
// with padding. A second embedder in the same process cannot load onnxruntime again and runs
// TF.js, with the same vectors.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';

const texts = [
  'add and remove users and groups',
  'commandline package manager',
  'Avahi mDNS/DNS-SD daemon',
  'Recalculate the set of abstract methods of an abstract class.',
  'Ünïcödé, émojis 🌱 and 日本語のテキスト',
  'x',
  `A long note: ${'the sourdough starter needs flour, water and patience; '.repeat(30)}`,
  'information retrieval evaluation with nDCG',
];

const model = (runtime?: 'onnx' | 'tfjs') => new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rz-onnx-')), runtime });
const open: WorkerEmbedder[] = [];
afterAll(() => Promise.all(open.map((e) => e.close())));

function maxDiff(a: Float32Array[], b: Float32Array[]): number {
  let worst = 0;
  a.forEach((v, i) => v.forEach((x, j) => (worst = Math.max(worst, Math.abs(x - b[i][j])))));
  return worst;
}

describe('USE-lite on onnxruntime', () => {
  it('gives the vectors TF.js gives, in one batch and one text at a time', async () => {
    const native = model();
    open.push(native);
    await native.ready;
    expect(native.runtime).toBe('onnxruntime');
    expect(native.modelId).toBe('use-lite-512@energetic-ai-0.2.0');
    const tfjs = model('tfjs');
    open.push(tfjs);
    await tfjs.ready;
    expect(tfjs.runtime).toBe('tfjs-wasm');

    const batch = await native.embed(texts);
    const reference = await tfjs.embed(texts);
    expect(batch).toHaveLength(texts.length);
    for (const v of batch) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect(maxDiff(batch, reference)).toBeLessThan(1e-5);
    // Padding in a batch changes nothing: each text alone gives the same vector.
    const alone = await Promise.all(texts.map(async (t) => (await native.embed([t], 'query'))[0]));
    expect(maxDiff(alone, batch)).toBeLessThan(1e-5);
    // And the vectors mean something: related texts are nearer than unrelated ones.
    const [q, near, far] = await native.embed(['create a new user account', 'add and remove users and groups', 'sourdough bread recipe']);
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
    expect(dot(q, near)).toBeGreaterThan(dot(q, far));
  }, 120_000);

  it('embeds an empty text without failing the batch', async () => {
    const [empty, word] = await open[0].embed(['', 'word']);
    expect(Math.hypot(...empty)).toBeCloseTo(1, 5);
    expect(Math.hypot(...word)).toBeCloseTo(1, 5);
  });

  it('leaves a second embedder in the same process on TF.js (the binding loads once per process)', async () => {
    const second = model('onnx');
    open.push(second);
    await second.ready;
    expect(second.runtime).toBe('tfjs-wasm');
    expect(maxDiff(await second.embed(texts.slice(0, 3)), await open[0].embed(texts.slice(0, 3)))).toBeLessThan(1e-5);
  }, 120_000);
});
