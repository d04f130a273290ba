// Lab: each query's similarity to the calibration set's notes (its "background"), written
// as JSON for offline fusion experiments on eval traces.
import { writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { loadCollection } from '../eval/collection.js';
import { calibrationTexts, quantile } from '../../src/search/calibration.js';

const e = new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rz-bg-')) });
const notes = calibrationTexts().filter((t) => t.kind === 'note');
const nv = await e.embed(notes.map((n) => n.text));
const out: Record<string, { mean: number; p90: number; max: number }> = {};
for (const dir of process.argv.slice(3)) {
  const qs = loadCollection(dir).queries.map((q) => q.text);
  for (let i = 0; i < qs.length; i += 64) {
    const vs = await e.embed(qs.slice(i, i + 64));
    vs.forEach((v, j) => {
      const cs = nv.map((n) => n.reduce((s, x, k) => s + x * v[k], 0));
      out[qs[i + j]] = { mean: cs.reduce((a, b) => a + b, 0) / cs.length, p90: quantile(cs, 0.9), max: Math.max(...cs) };
    });
  }
}
writeFileSync(process.argv[2], JSON.stringify(out));
await e.close();
