// Link suggestions' quality on retrieval collections, for a change to their keyword
// candidates: each judged query's text asks SuggestionsService.suggest for 10 nodes (what
// GET /links/suggestions answers), scored by nDCG@10 and recall@10 against the judgments;
// the keyword candidates alone (keywordSignal's pool of 40, in its order) too, and the time
// each suggestion took. One JSON line per collection.
//   npm run build && npx esbuild bench/lab/suggestions-eval.ts --bundle --platform=node --format=esm \
//     --packages=external --outfile=dist/lab/suggestions-eval.mjs && node dist/lab/suggestions-eval.mjs [dirs...]
// Defaults: the shared CISI collection and bench/lab/collections/*. The real model (use-lite).
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { keyTerms } from '../../src/search/text.js';
import { keywordSignal } from '../../src/services/graph/graph-signals.js';
import { loadCollection } from '../eval/collection.js';
import { openEvalApp } from '../eval/eval-app.js';
import { mean, ndcgAt, recallAt } from '../eval/metrics.js';

const labDir = 'bench/lab/collections';
const dirs = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['../shared/eval/cisi', ...(existsSync(labDir) ? readdirSync(labDir).map((d) => join(labDir, d)) : [])].filter((d) => existsSync(join(d, 'qrels.tsv')));
const embedder = new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rhizome-lab-model-')) });
const r3 = (x: number) => Math.round(x * 1000) / 1000;

for (const dir of dirs) {
  const c = loadCollection(dir);
  const app = await openEvalApp(embedder, 'suggestions-lab');
  try {
    const { s, tenantId } = app;
    const docOf = new Map<string, string>();
    for (const d of c.docs) docOf.set((await s.nodes.create(tenantId, { title: (d.title || d.text).slice(0, 500) || d.id, content: d.text })).id, d.id);
    await s.queue.idle(60 * 60_000);
    const ndcg: number[] = [];
    const recall: number[] = [];
    const poolNdcg: number[] = [];
    const poolRecall: number[] = [];
    const ms: number[] = [];
    for (const q of c.queries) {
      const rel = c.relevant.get(q.id)!;
      const text = q.text.slice(0, 10_000);
      const t = performance.now();
      const { suggestions } = await s.suggestions.suggest(tenantId, text, 10);
      ms.push(performance.now() - t);
      const got = suggestions.map((x) => docOf.get(x.node_id)!);
      ndcg.push(ndcgAt(got, rel, 10));
      recall.push(recallAt(got, rel, 10));
      // The keyword candidates as keywordSignal gives them (insertion order is its order).
      const pool = [...(await keywordSignal(s.keywordRoute!, s.repos.context, tenantId, keyTerms(text, 16), 40)).keys()].map((id) => docOf.get(id)!);
      poolNdcg.push(ndcgAt(pool, rel, 10));
      poolRecall.push(recallAt(pool, rel, 40));
    }
    ms.sort((a, b) => a - b);
    console.log(JSON.stringify({
      kind: 'suggestions_quality', collection: c.name, docs: c.docs.length, queries: c.queries.length,
      ndcg10: r3(mean(ndcg)), recall10: r3(mean(recall)), keyword_pool_ndcg10: r3(mean(poolNdcg)), keyword_pool_recall40: r3(mean(poolRecall)),
      p50_ms: r3(ms[Math.floor(ms.length / 2)]), p95_ms: r3(ms[Math.floor(ms.length * 0.95)]),
    }));
  } finally {
    await app.close();
  }
}
await embedder.close();
