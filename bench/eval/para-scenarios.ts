// Three PARA situations where a classifier that only compares items with each other files
// wrongly (issue: trustworthy PARA filing), each scored like bench/eval/para.ts:
//   single_item  — only one item exists (run once per item, summed): nothing to beat but the threshold;
//   one_at_a_time — items are created one by one with notes arriving between them, so early
//                   notes meet too few items (the classifier must reconsider as items arrive);
//   none_20pct   — a fifth of the notes belong to no item.
// precision = correct / filed, coverage = correct / notes that belong to an existing item.
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { createHash } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { buildContainer } from '../../src/container.js';
import { openDatabase } from '../../src/db/open.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { memoryLogger } from '../../src/logger.js';
import { wire } from '../../src/wiring.js';
import type { ClassifierSettings } from '../../src/services/para/para-scoring.js';
import { score, type ParaCorpus, type ParaScore } from './para-score.js';

type Step = { kind: 'item'; key: string } | { kind: 'note'; index: number };

export interface ScenarioResult extends ParaScore {
  scenario: string;
}

const order = (s: string) => createHash('sha256').update(s).digest('hex');

async function play(corpus: ParaCorpus, embedder: Embedder, dataDir: string, steps: Step[], liveItems: Set<string>, settings?: Partial<ClassifierSettings>): Promise<{ expected: Map<string, string | null>; got: Map<string, string[]> }> {
  const db = openDatabase(':memory:');
  const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder, log: memoryLogger() }));
  s.paraClassifier.settings = { ...s.paraClassifier.settings, ...settings };
  await s.queue.start();
  try {
    const { tenant_id: tenantId } = await s.tenants.create('eval');
    const itemIds = new Map<string, string>();
    const expected = new Map<string, string | null>();
    for (const step of steps) {
      if (step.kind === 'item') {
        const it = corpus.items.find((i) => i.key === step.key)!;
        itemIds.set(it.key, (await s.para.create(tenantId, { category: it.category, label: it.label, description: it.description })).id);
      } else {
        const n = corpus.nodes[step.index];
        const node = await s.nodes.create(tenantId, { title: n.title, content: n.content });
        expected.set(node.id, n.item !== null && liveItems.has(n.item) ? n.item : null);
      }
      await s.queue.idle(120_000);
    }
    const keyOf = new Map([...itemIds].map(([k, id]) => [id, k]));
    const got = new Map<string, string[]>();
    for (const r of db.prepare("SELECT node_id, para_item_id FROM node_para WHERE tenant_id = ? AND source = 'auto' AND archived = 0").all(tenantId) as { node_id: string; para_item_id: string }[]) {
      got.set(r.node_id, [...(got.get(r.node_id) ?? []), keyOf.get(r.para_item_id)!]);
    }
    return { expected, got };
  } finally {
    await s.queue.stop();
    db.close();
  }
}

/** Runs are separate databases with distinct node ids: their filings are scored together. */
function tally(runs: { expected: Map<string, string | null>; got: Map<string, string[]> }[], scenario: string): ScenarioResult {
  const expected = new Map(runs.flatMap((r) => [...r.expected]));
  const got = new Map(runs.flatMap((r) => [...r.got]));
  return { scenario, ...score(expected, got) };
}

export async function evaluateParaScenarios(corpus: ParaCorpus, embedder: Embedder, dataDir: string, settings?: Partial<ClassifierSettings>): Promise<ScenarioResult[]> {
  const notes = corpus.nodes.map((_, i) => i).sort((a, b) => (order(`n${a}`) < order(`n${b}`) ? -1 : 1));
  const keys = corpus.items.map((i) => i.key);
  const out: ScenarioResult[] = [];

  // One item at a time, each alone with every note (notes first, then the item: a cold start).
  const single = [];
  for (const key of keys) single.push(await play(corpus, embedder, dataDir, [...notes.map((index) => ({ kind: 'note' as const, index })), { kind: 'item', key }], new Set([key]), settings));
  out.push(tally(single, 'single_item'));

  // Items one by one, a slice of the notes arriving before each and after the last.
  const steps: Step[] = [];
  const slice = Math.ceil(notes.length / (keys.length + 1));
  notes.slice(0, slice).forEach((index) => steps.push({ kind: 'note', index }));
  keys.forEach((key, k) => {
    steps.push({ kind: 'item', key });
    notes.slice((k + 1) * slice, (k + 2) * slice).forEach((index) => steps.push({ kind: 'note', index }));
  });
  out.push(tally([await play(corpus, embedder, dataDir, steps, new Set(keys), settings)], 'one_at_a_time'));

  // A fifth of the notes belong nowhere: every such note, and four times as many others.
  const none = notes.filter((i) => corpus.nodes[i].item === null);
  const some = notes.filter((i) => corpus.nodes[i].item !== null).slice(0, none.length * 4);
  const mixed = [...none, ...some].sort((a, b) => (order(`m${a}`) < order(`m${b}`) ? -1 : 1));
  out.push(tally([await play(corpus, embedder, dataDir, [...keys.map((key) => ({ kind: 'item' as const, key })), ...mixed.map((index) => ({ kind: 'note' as const, index }))], new Set(keys), settings)], 'none_20pct'));
  return out;
}
