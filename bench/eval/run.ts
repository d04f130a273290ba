// `npm run eval`: search quality on ../shared/eval/cisi (when present) and the held-out
// collections in bench/lab/collections/ (or the collection folders given as arguments), each
// with the other collections' queries asked against it for abstention; then PARA
// classification, then OCR accuracy; answers (POST /ask) beside each collection's search when bench/eval/ocr.ts is present. Prints a readable
// table and one JSON line per result.
import { appendFileSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { packageRoot } from '../../src/paths.js';
import { loadCollection, type Collection } from './collection.js';
import { sweep } from './fusion-sweep.js';
import { evaluateMemory, formatMemoryTable } from './memory-eval.js';
import { evaluateSearch, formatTable, type QueryTrace } from './search-eval.js';
import { evaluateAsk, formatAskTable } from './ask-eval.js';
import { evaluatePassages, formatPassageTable, type PassageRule } from './passage-eval.js';

function defaultDirs(): string[] {
  const root = packageRoot();
  const lab = join(root, 'bench', 'lab', 'collections');
  const held = existsSync(lab) ? readdirSync(lab).map((d) => join(lab, d)) : [];
  return [join(root, '..', 'shared', 'eval', 'cisi'), ...held];
}

const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
// `--memory`: only the conversation-memory lab (bench/lab/conversations), the quick loop for agent memory.
const memoryOnly = flags.includes('--memory');
// `--ask`: only the answers' quality (first citation vs hybrid precision@1), the quick loop for POST /ask.
const askOnly = flags.includes('--ask');
// `--search`: only search quality on the collections (no memory lab, no answers, no PARA or OCR), the quick loop for ranking.
const searchOnly = flags.includes('--search');
// `--passages`: only the paragraph-in-the-middle lab (passage-eval.ts; also part of the whole run), per collection with enough single-answer queries.
const passagesOnly = flags.includes('--passages');
const dirs = (args.length ? args.map((d) => resolve(d)) : defaultDirs()).filter((dir) => {
  if (existsSync(join(dir, 'corpus.jsonl'))) return true;
  console.error(`skipping ${dir}: no corpus.jsonl`);
  return false;
});
const collections: Collection[] = dirs.map(loadCollection);
const embedder = new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rhizome-eval-model-')) });
try {
  const memoryDir = join(packageRoot(), 'bench', 'lab', 'conversations');
  if (!askOnly && !searchOnly && !passagesOnly && existsSync(join(memoryDir, 'questions.jsonl'))) {
    const r = await evaluateMemory(memoryDir, embedder, collections.find((c) => c.name === 'cisi') ?? collections[0] ?? null);
    console.log(formatMemoryTable(r));
    console.log(JSON.stringify({ kind: 'memory_quality', ...r }));
  }
  // A long note's similarity: its own vector's alone, or the best of its own and its passages' (served).
  const rules: PassageRule[] = [
    { name: 'own vector only', set: (s) => ((s.vectors.usePassages = false), () => void (s.vectors.usePassages = true)) },
    { name: 'best of own and passages (MaxP, served)', set: () => () => {} },
  ];
  for (const c of passagesOnly || !(memoryOnly || askOnly || searchOnly) ? collections : []) {
    const r = await evaluatePassages(c, embedder, rules);
    if (!r) continue;
    console.log(formatPassageTable(r));
    console.log(JSON.stringify({ kind: 'passage_quality', ...r }));
  }
  for (const c of memoryOnly || passagesOnly ? [] : collections) {
    if (!searchOnly) {
      const ask = await evaluateAsk(c, embedder, collections.filter((o) => o !== c));
      console.log(formatAskTable(ask));
      console.log(JSON.stringify({ kind: 'ask_quality', ...ask }));
    }
    if (askOnly) continue;
    const traces: QueryTrace[] = [];
    const others = collections.filter((o) => o !== c);
    const dump = process.env.RHIZOME_EVAL_TRACES; // a file: one JSON line per query trace, for fusion experiments
    const result = await evaluateSearch(c, embedder, others, process.env.RHIZOME_EVAL_SWEEP || dump ? (t) => traces.push(t) : undefined);
    if (dump) {
      for (const t of traces) {
        appendFileSync(dump, JSON.stringify({ collection: c.name, ...t, relevant: [...t.relevant], idOf: [...t.idOf].filter(([seq]) => t.sides.keyword.some((h) => h.seq === seq) || t.sides.semantic.some((h) => h.seq === seq)) }) + '\n');
      }
    }
    console.log(formatTable(result));
    console.log(JSON.stringify({ kind: 'search_quality', ...result }));
    if (traces.length) sweep(c.name, traces);
  }
  const para = memoryOnly || askOnly || searchOnly || passagesOnly ? null : (await import('./para.js').catch(() => null)) as null | { evaluateParaClassification: (o: { embedder: unknown }) => Promise<object> };
  if (para) {
    const r = (await para.evaluateParaClassification({ embedder })) as {
      precision: number;
      coverage: number;
      warm: { precision: number; coverage: number };
      scenarios: { scenario: string; precision: number; coverage: number; assigned: number; none_assigned: number; none_total: number }[];
    };
    console.log(`PARA classification: precision ${r.precision.toFixed(3)}, coverage ${r.coverage.toFixed(3)} (warm: ${r.warm.precision.toFixed(3)} / ${r.warm.coverage.toFixed(3)})`);
    console.log('| PARA scenario | precision | coverage | filed | notes belonging nowhere filed |');
    console.log('|---|---|---|---|---|');
    for (const x of r.scenarios) console.log(`| ${x.scenario} | ${x.precision.toFixed(3)} | ${x.coverage.toFixed(3)} | ${x.assigned} | ${x.none_assigned} / ${x.none_total} |`);
    console.log(JSON.stringify({ kind: 'para_classification', ...r }));
  }
  // OCR character error rate on rendered screenshots and a photo (needs Chromium).
  const ocr = memoryOnly || askOnly || searchOnly || passagesOnly ? null : (await import('./ocr.js').catch(() => null)) as null | typeof import('./ocr.js');
  if (ocr) {
    const r = await ocr.evaluateOcr();
    console.log(ocr.formatOcrTable(r));
    for (const s of r.samples) console.log(JSON.stringify({ kind: 'ocr_sample', model: r.model, ...s }));
    console.log(JSON.stringify({ kind: 'ocr_accuracy', model: r.model, cer_clean: r.cer_clean, cer_all: r.cer_all, ms_mean: r.ms_mean, cold_start_ms: r.cold_start_ms, rss_mb: r.rss_mb, images: r.samples.length }));
    await (await import('../../src/ingest/ocr/index.js')).closeOcr();
  }
} finally {
  await embedder.close();
}
