// Lab: the distribution of a question's cosine over its conversation's turns (mean, spread,
// best, the evidence turns'), for in-domain questions and out-of-domain queries, to choose
// the semantic gate. Writes one JSON line per query.
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildContainer } from '../../src/container.js';
import { openDatabase } from '../../src/db/open.js';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { memoryLogger } from '../../src/logger.js';
import { wire } from '../../src/wiring.js';
import { loadCollection } from '../eval/collection.js';
import { loadConversations } from '../eval/memory-eval.js';

const [convDir, ...foreignDirs] = process.argv.slice(2);
const embedder = new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rz-m-')) });
const dataDir = mkdtempSync(join(tmpdir(), 'rz-gate-'));
const db = openDatabase(join(dataDir, 'rhizome.db'));
const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder, log: memoryLogger() }));
await s.embedding.init();
await s.queue.start();
const { conversations, questions } = loadConversations(convDir);
const out: string[] = [];
const cal = await s.embedding.ready();
for (const c of conversations) {
  const { tenant_id } = await s.tenants.create(c.id);
  const turnNode = new Map<string, string>();
  for (const ses of c.sessions) for (const t of ses.turns) turnNode.set(t.id, (await s.nodes.create(tenant_id, { title: t.speaker, content: t.text }, { created_at: ses.date })).id);
  await s.queue.idle(600_000);
  const vecs: { id: string; v: Float32Array }[] = [];
  for (const id of turnNode.values()) vecs.push({ id, v: (await s.vectors.get(tenant_id, id))! });
  const stats = async (text: string, evidence: string[]) => {
    const q = (await s.embedding.embedQuery(text))!;
    const cs = vecs.map(({ id, v }) => ({ id, c: v.reduce((a, x, i) => a + x * q[i], 0) }));
    const vals = cs.map((x) => x.c).sort((a, b) => b - a);
    const mean = vals.reduce((a, b) => a + b, 0) / vals.length;
    const sd = Math.sqrt(vals.reduce((a, b) => a + (b - mean) ** 2, 0) / vals.length);
    const ev = evidence.map((e) => cs.find((x) => x.id === turnNode.get(e))!.c);
    return { n: vals.length, mean, sd, top: vals.slice(0, 10), ev, floor: cal.query.floor };
  };
  for (const q of questions.filter((x) => x.conversation === c.id)) out.push(JSON.stringify({ conv: c.id, foreign: false, cat: q.category, text: q.text, ...(await stats(q.text, q.evidence)) }));
  for (const d of foreignDirs) for (const fq of loadCollection(d).queries.slice(0, 30)) out.push(JSON.stringify({ conv: c.id, foreign: true, from: d, text: fq.text, ...(await stats(fq.text, [])) }));
}
writeFileSync('/tmp/exp/gate.jsonl', out.join('\n') + '\n');
await s.queue.stop();
await embedder.close();
