// `npm run eval`: search quality on ../shared/eval/cisi (plus any collection folders given
// as arguments), then PARA classification when src/eval/para.ts is present, then OCR
// accuracy when src/eval/ocr.ts is present.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WorkerEmbedder } from '../embed/worker-embedder.js';
import { packageRoot } from '../paths.js';
import { loadCollection } from './collection.js';
import { evaluateSearch, formatTable } from './search-eval.js';

const dirs = process.argv.slice(2).length ? process.argv.slice(2).map((d) => resolve(d)) : [join(packageRoot(), '..', 'shared', 'eval', 'cisi')];
const embedder = new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rhizome-eval-model-')) });
try {
  for (const dir of dirs) {
    if (!existsSync(join(dir, 'corpus.jsonl'))) {
      console.error(`skipping ${dir}: no corpus.jsonl`);
      continue;
    }
    const result = await evaluateSearch(loadCollection(dir), embedder);
    console.log(formatTable(result));
    console.log(JSON.stringify({ kind: 'search_quality', ...result }));
  }
  // The PARA engineer's classifier evaluation, bundled when it exists.
  const para = (await import('./para.js').catch(() => null)) as null | { evaluateParaClassification: (o: { embedder: unknown }) => Promise<object> };
  if (para) {
    const r = (await para.evaluateParaClassification({ embedder })) as { precision: number; coverage: number };
    console.log(`PARA classification: precision ${r.precision.toFixed(3)}, coverage ${r.coverage.toFixed(3)}`);
    console.log(JSON.stringify({ kind: 'para_classification', ...r }));
  }
  // OCR character error rate on rendered screenshots and a photo (needs Chromium).
  const ocr = (await import('./ocr.js').catch(() => null)) as null | typeof import('./ocr.js');
  if (ocr) {
    const r = await ocr.evaluateOcr();
    console.log(ocr.formatOcrTable(r));
    for (const s of r.samples) console.log(JSON.stringify({ kind: 'ocr_sample', model: r.model, ...s }));
    console.log(JSON.stringify({ kind: 'ocr_accuracy', model: r.model, cer_clean: r.cer_clean, cer_all: r.cer_all, ms_mean: r.ms_mean, cold_start_ms: r.cold_start_ms, rss_mb: r.rss_mb, images: r.samples.length }));
    await (await import('../ingest/ocr/index.js')).closeOcr();
  }
} finally {
  await embedder.close();
}
