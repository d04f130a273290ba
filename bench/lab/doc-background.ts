// Lab: each document's similarity to the calibration set's texts (its "background", as in
// CSLS), written as JSON for offline fusion experiments on eval traces.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { loadCollection } from '../eval/collection.js';
import { calibrationTexts } from '../../src/search/calibration.js';
import { embeddingText } from '../../src/search/embedding-text.js';

const e = new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rz-bg-')) });
const refs = calibrationTexts();
const rv = await e.embed(refs.map((n) => n.text));
const out: Record<string, { qmean: number; nmean: number; top10: number }> = {};
for (const dir of process.argv.slice(3)) {
  const c = loadCollection(dir);
  for (let i = 0; i < c.docs.length; i += 32) {
    const batch = c.docs.slice(i, i + 32);
    const vs = await e.embed(batch.map((d) => embeddingText({ title: (d.title || d.text).slice(0, 500) || d.id, summary: '', body_markdown: d.text })));
    vs.forEach((v, j) => {
      const cs = rv.map((r) => r.reduce((s, x, k) => s + x * v[k], 0));
      const q = cs.filter((_, k) => refs[k].kind === 'query');
      const n = cs.filter((_, k) => refs[k].kind === 'note');
      out[`${basename(dir)}:${batch[j].id}`] = {
        qmean: q.reduce((a, b) => a + b, 0) / q.length,
        nmean: n.reduce((a, b) => a + b, 0) / n.length,
        top10: [...cs].sort((a, b) => b - a).slice(0, 10).reduce((a, b) => a + b, 0) / 10,
      };
    });
  }
}
writeFileSync(process.argv[2], JSON.stringify(out));
await e.close();
