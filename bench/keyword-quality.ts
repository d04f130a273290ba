// The keyword side's two routes on the eval collections, in the bench's run: FTS5 scoring
// every match against the keyword module (search/keyword/) with every term kept in memory
// ahead and with terms read on first use. nDCG@10 with the eval's own metric; the routes
// must agree.
import { SqliteStore } from '../src/db/store/sqlite-store.js';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { buildContainer } from '../src/container.js';
import { closeDatabase, openDatabase } from '../src/db/open.js';
import type { Embedder } from '../src/embed/embedder.js';
import { loadCollection } from './eval/collection.js';
import { mean, ndcgAt } from './eval/metrics.js';
import { memoryLogger } from '../src/logger.js';
import { packageRoot } from '../src/paths.js';
import { buildFtsQuery, contentTerms } from '../src/search/fts-query.js';
import { quoteTerm } from '../src/search/text.js';
import { wire } from '../src/wiring.js';
import { KeywordRoute } from '../src/services/nodes/keyword-route.js';
import { engineTop } from '../test/helpers/engine-bm25.js';

/** bench/lab/collections/* and the folders in RHIZOME_BENCH_EVAL_DIRS (colon-separated), those with a corpus. */
function collectionDirs(): string[] {
  const lab = join(packageRoot(), 'bench', 'lab', 'collections');
  const dirs = [...(existsSync(lab) ? readdirSync(lab).map((d) => join(lab, d)) : []), ...(process.env.RHIZOME_BENCH_EVAL_DIRS ?? '').split(':').filter(Boolean)];
  return dirs.filter((d) => existsSync(join(d, 'corpus.jsonl')));
}

export async function keywordQuality(embedder: Embedder, out: (l: Record<string, unknown>) => void): Promise<void> {
  for (const dir of collectionDirs()) {
    const c = loadCollection(dir);
    const dataDir = mkdtempSync(join(tmpdir(), 'rhizome-bench-quality-'));
    const db = openDatabase(join(dataDir, 'rhizome.db'));
    const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder, log: memoryLogger() }));
    await s.embedding.init();
    const { tenant_id: tenantId } = await s.tenants.create('quality');
    const docOf = new Map<number, string>();
    await s.db.withTx(async () => {
      for (const d of c.docs) {
        const node = await s.nodes.create(tenantId, { title: (d.title || d.text).slice(0, 500) || d.id, content: d.text });
        docOf.set((await s.repos.nodes.get(tenantId, node.id))!.seq, d.id);
      }
    });
    const route = s.keywordRoute!;
    const cold = new KeywordRoute(s.repos.keywordSource, s.repos.nodes);
    await s.keywordWarmer!.keep(tenantId);
    await route.ranker.warm(tenantId, 1);
    const ndcg = { every_match: [] as number[], module_warm: [] as number[], module_cold: [] as number[] };
    let differ = 0;
    for (const q of c.queries) {
      const match = buildFtsQuery(q.text);
      if (!match) continue;
      const phrases = contentTerms(q.text).map(quoteTerm);
      const rel = c.relevant.get(q.id)!;
      const ids = (hits: { seq: number }[]) => hits.slice(0, 10).map((h) => docOf.get(h.seq)!);
      const full = ids((await engineTop(s.db, tenantId, phrases, {}, 200)).hits);
      const warm = ids((await route.keywordTop(tenantId, phrases, {}, 200)).hits);
      const fresh = ids((await cold.keywordTop(tenantId, phrases, {}, 200)).hits);
      if (full.join() !== warm.join() || full.join() !== fresh.join()) differ++;
      ndcg.every_match.push(ndcgAt(full, rel, 10));
      ndcg.module_warm.push(ndcgAt(warm, rel, 10));
      ndcg.module_cold.push(ndcgAt(fresh, rel, 10));
    }
    const r = (xs: number[]) => Math.round(mean(xs) * 10000) / 10000;
    out({ kind: 'keyword_route_quality', collection: c.name, docs: c.docs.length, queries: ndcg.every_match.length, ndcg10_fts_every_match: r(ndcg.every_match), ndcg10_module_warm: r(ndcg.module_warm), ndcg10_module_cold: r(ndcg.module_cold), kept_terms: route.ranker.cache.get(tenantId)?.size ?? 0, queries_with_different_top10: differ });
    closeDatabase(db);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
