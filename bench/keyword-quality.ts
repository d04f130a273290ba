// The keyword side's two routes on the eval collections, in the bench's run: FTS5 scoring
// every match (the route before kept term impacts) against kept impacts for every term
// (floor 1: the whole query goes through search/term-impacts.ts, the strictest check) and
// at the production floor, and against postings kept in memory for every term (floor 1;
// kept-postings.repo.ts). nDCG@10 with the eval's own metric; the routes must agree.
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
    const repo = s.repos.fts!;
    repo.kept.floor = 1;
    await repo.kept.build(tenantId, Infinity);
    const ndcg = { every_match: [] as number[], impacts_all_terms: [] as number[], impacts_default: [] as number[], kept_all_terms: [] as number[] };
    let differ = 0;
    for (const q of c.queries) {
      const match = buildFtsQuery(q.text);
      if (!match) continue;
      const phrases = contentTerms(q.text).map(quoteTerm);
      const rel = c.relevant.get(q.id)!;
      const ids = (hits: { seq: number }[]) => hits.slice(0, 10).map((h) => docOf.get(h.seq)!);
      const full = ids(await repo.keyword(tenantId, match, {}, 200));
      repo.useKept = false;
      const all = ids((await repo.keywordTop(tenantId, phrases, {}, 200, 1)).hits);
      const dflt = ids((await repo.keywordTop(tenantId, phrases, {}, 200)).hits);
      repo.useKept = true;
      const kept = ids((await repo.keywordTop(tenantId, phrases, {}, 200)).hits);
      if (full.join() !== all.join() || full.join() !== dflt.join() || full.join() !== kept.join()) differ++;
      ndcg.kept_all_terms.push(ndcgAt(kept, rel, 10));
      ndcg.every_match.push(ndcgAt(full, rel, 10));
      ndcg.impacts_all_terms.push(ndcgAt(all, rel, 10));
      ndcg.impacts_default.push(ndcgAt(dflt, rel, 10));
    }
    const r = (xs: number[]) => Math.round(mean(xs) * 10000) / 10000;
    out({ kind: 'keyword_route_quality', collection: c.name, docs: c.docs.length, queries: ndcg.every_match.length, ndcg10_fts_every_match: r(ndcg.every_match), ndcg10_impacts_every_term: r(ndcg.impacts_all_terms), ndcg10_impacts_default: r(ndcg.impacts_default), ndcg10_kept_every_term: r(ndcg.kept_all_terms), kept_terms: repo.kept.termCount(tenantId), queries_with_different_top10: differ });
    closeDatabase(db);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
