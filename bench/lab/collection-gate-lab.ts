// Lab: what the semantic gate sees on the retrieval collections. For each collection (one
// tenant), its gate's inputs (the probes' best cosines, the median note length, the best-of-N
// gate) and, for its own queries and the other collections' (foreign, nothing relevant), the
// raw sides: the semantic pool with each hit's cosine (passages included), the keyword hits,
// the plain whole-note k-NN and the judged documents. Gates are then compared offline on
// these lines (semantic-mode nDCG@10 against the plain cosine, foreign queries with a
// semantic-only hit). Writes one JSON line per tenant and per query to the file given first.
//   node dist/lab-collection-gate.js /tmp/exp/gate-collections.jsonl <collection dirs…>
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildContainer } from '../../src/container.js';
import { openDatabase } from '../../src/db/open.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { memoryLogger } from '../../src/logger.js';
import { abstentionFloor, calibrationTexts, quantile } from '../../src/search/calibration.js';
import { HYBRID_POOL } from '../../src/services/nodes/search.service.js';
import { wire } from '../../src/wiring.js';
import { loadCollection } from '../eval/collection.js';

const [outFile, ...dirs] = process.argv.slice(2);
const collections = dirs.map(loadCollection);
const embedder = new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rz-m-')) });
const dataDir = mkdtempSync(join(tmpdir(), 'rz-cgate-'));
const db = openDatabase(join(dataDir, 'rhizome.db'));
const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder, log: memoryLogger() }));
await s.embedding.init();
await s.queue.start();
const scale = (await s.embedding.ready()).query;
const probes = await embedder.embed(
  calibrationTexts()
    .filter((t) => t.kind === 'query')
    .map((t) => t.text),
  'query',
);
const out: string[] = [];
for (const c of collections) {
  const { tenant_id: tenantId } = await s.tenants.create(c.name);
  const lengths: number[] = [];
  for (const d of c.docs) {
    await s.nodes.create(tenantId, { title: (d.title || d.text).slice(0, 500) || d.id, content: d.text });
    lengths.push(d.text.length);
  }
  await s.queue.idle(60 * 60_000);
  const seqDoc = new Map((db.prepare('SELECT seq, id FROM nodes WHERE tenant_id = ?').raw().all(tenantId) as [number, string][]).map(([seq, id]) => [seq, id]));
  const idDoc = new Map<string, string>();
  const vectors = await s.vectors.count(tenantId);
  const probeBest: number[] = [];
  for (const p of probes) {
    const [hit] = await s.vectors.nearest(tenantId, p, 1);
    if (hit) probeBest.push(hit.score);
  }
  // The eval creates nodes in corpus order; the ids map back through the creation order.
  const created = [...seqDoc.entries()].sort((a, b) => a[0] - b[0]);
  created.forEach(([, id], i) => idDoc.set(id, c.docs[i].id));
  const doc = (seq: number) => idDoc.get(seqDoc.get(seq)!)!;
  out.push(JSON.stringify({ kind: 'tenant', collection: c.name, vectors, median_chars: quantile(lengths, 0.5), probe_best: probeBest, best_of_n: abstentionFloor(scale, vectors), floor: scale.floor }));
  const asked = [...c.queries.map((q) => ({ q, foreign: null as string | null })), ...collections.filter((o) => o !== c).flatMap((o) => o.queries.slice(0, 100).map((q) => ({ q, foreign: o.name })))];
  for (const { q, foreign } of asked) {
    const sides = await s.search.sides(tenantId, q.text, {}, 'hybrid', HYBRID_POOL);
    const qv = await s.embedding.embedQuery(q.text);
    s.vectors.usePassages = false;
    const plain = qv ? await s.vectors.knn(tenantId, qv, 100) : [];
    s.vectors.usePassages = true;
    out.push(
      JSON.stringify({
        kind: 'query',
        collection: c.name,
        foreign,
        text: q.text,
        relevant: foreign ? [] : [...(c.relevant.get(q.id) ?? [])],
        semantic: sides.semantic.map((h) => [doc(h.seq), +h.score.toFixed(5)]),
        keyword: sides.keyword.map((h) => doc(h.seq)),
        cosine: plain.map((h) => idDoc.get(h.id)),
        gate: sides.gate,
      }),
    );
  }
}
writeFileSync(outFile, out.join('\n') + '\n');
await s.queue.stop();
await embedder.close();
