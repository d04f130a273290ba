// Measures automatic PARA classification end to end: real services over an in-memory
// database, the real embedding model, the durable queue. Two situations a user meets:
//  - cold: notes exist first, then the items are created (creation queues reclassification);
//  - warm: items already hold a couple of notes the user filed, later notes arrive one by one
//    (classified when their embedding lands, against label + centroid).
// precision = correct / assigned (a wrong folder, or any folder for a note that belongs to
// none, counts against it); coverage = correct / total, total = notes that belong to an item.
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildContainer } from '../../src/container.js';
import { wire } from '../../src/wiring.js';
import { openDatabase } from '../../src/db/open.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { memoryLogger } from '../../src/logger.js';
import { packageRoot } from '../../src/paths.js';
import type { ClassifierSettings } from '../../src/services/para/para-scoring.js';
import { evaluateParaScenarios, type ScenarioResult } from './para-scenarios.js';
import { score, type ParaCorpus, type ParaScore } from './para-score.js';

export interface ParaEvalResult extends ParaScore {
  model: string;
  settings: ClassifierSettings;
  warm: ParaScore;
  scenarios: ScenarioResult[];
}

export interface ParaEvalOptions {
  embedder?: Embedder & { ready?: Promise<void> };
  corpus?: ParaCorpus;
  settings?: Partial<ClassifierSettings>;
  /** Notes per item the user files by hand in the warm run. */
  seedsPerItem?: number;
}

export function loadParaCorpus(): ParaCorpus {
  return JSON.parse(readFileSync(join(packageRoot(), 'test', 'fixtures', 'para-corpus.json'), 'utf8'));
}

export async function evaluateParaClassification(opts: ParaEvalOptions = {}): Promise<ParaEvalResult> {
  const corpus = opts.corpus ?? loadParaCorpus();
  const dataDir = mkdtempSync(join(tmpdir(), 'rhizome-para-eval-'));
  const embedder = opts.embedder ?? new WorkerEmbedder({ model: 'use-lite', cacheDir: dataDir });
  try {
    const cold = await runScenario(corpus, embedder, dataDir, opts, 0);
    const warm = await runScenario(corpus, embedder, dataDir, opts, opts.seedsPerItem ?? 2);
    const scenarios = await evaluateParaScenarios(corpus, embedder, dataDir, opts.settings);
    return { ...cold.score, model: embedder.modelId, settings: cold.settings, warm: warm.score, scenarios };
  } finally {
    if (!opts.embedder) await embedder.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function runScenario(corpus: ParaCorpus, embedder: Embedder, dataDir: string, opts: ParaEvalOptions, seeds: number) {
  const config = loadConfig({ RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' });
  const db = openDatabase(':memory:');
  const s = wire(await buildContainer({ config, db: new SqliteStore(db), embedder, log: memoryLogger() }));
  s.paraClassifier.settings = { ...s.paraClassifier.settings, ...opts.settings };
  await s.embedding.init();
  await s.queue.start();
  try {
    const { tenant_id: tenantId } = await s.tenants.create('eval');
    const itemIds = new Map<string, string>();
    const createItems = async () => {
      for (const it of corpus.items) itemIds.set(it.key, (await s.para.create(tenantId, { category: it.category, label: it.label, description: it.description })).id);
    };
    const expected = new Map<string, string | null>();
    const seeded = new Map<string, number>();

    if (seeds > 0) await createItems();
    for (const n of corpus.nodes) {
      const isSeed = seeds > 0 && n.item !== null && (seeded.get(n.item) ?? 0) < seeds;
      const para_item_ids = isSeed ? [itemIds.get(n.item!)!] : [];
      const node = await s.nodes.create(tenantId, { title: n.title, content: n.content, para_item_ids });
      if (isSeed) seeded.set(n.item!, (seeded.get(n.item!) ?? 0) + 1);
      else expected.set(node.id, n.item === null ? null : n.item);
      // Warm: notes arrive one at a time, each classified as its embedding lands.
      if (seeds > 0) await s.queue.idle(120_000);
    }
    await s.queue.idle(120_000);
    if (seeds === 0) {
      await createItems();
      await s.queue.idle(120_000);
    }

    const keyOf = new Map([...itemIds].map(([k, id]) => [id, k]));
    const rows = db
      .prepare("SELECT node_id, para_item_id FROM node_para WHERE tenant_id = ? AND source = 'auto'")
      .all(tenantId) as { node_id: string; para_item_id: string }[];
    const got = new Map<string, string[]>();
    for (const r of rows) got.set(r.node_id, [...(got.get(r.node_id) ?? []), keyOf.get(r.para_item_id)!]);
    return { score: score(expected, got), settings: { ...s.paraClassifier.settings } };
  } finally {
    await s.queue.stop();
    db.close();
  }
}
