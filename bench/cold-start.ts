// Cold start at N nodes: a data folder written straight through the repositories (synthetic
// vectors stored under the default model's id and the nodes marked embedded, so the server
// re-embeds nothing), then `rhizome serve` started `runs` times: spawn → first /health
// answer, and spawn → the answer to a first semantic query (real model, query embedded).
import { SqliteStore } from '../src/db/store/sqlite-store.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { buildContainer } from '../src/container.js';
import { openDatabase } from '../src/db/open.js';
import type { Embedder } from '../src/embed/embedder.js';
import { USE_LITE_MODEL_ID } from '../src/embed/providers.js';
import { newId } from '../src/ids.js';
import { memoryLogger } from '../src/logger.js';
import { embeddingKey } from '../src/search/embedding-text.js';
import { embeddedPassages } from '../src/search/passages.js';
import { packageRoot } from '../src/paths.js';
import { wire } from '../src/wiring.js';
import { IDLE_MS } from '../src/repos/keyword-read-thread.js';
import { procStatusKb } from './proc-status.js';
import { SyntheticCorpus } from './synthetic.js';


/** One note in this many is a long article with passages, when the folder has passages. */
const PASSAGE_EVERY = 5;

async function writeFolder(n: number, passages = false): Promise<{ dir: string; apiKey: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-bench-cold-'));
  const corpus = new SyntheticCorpus();
  const embedder = { modelId: USE_LITE_MODEL_ID, dimension: 512, embed: async (t: string[]) => t.map(() => corpus.vector(0)), close: async () => {} } as unknown as Embedder;
  const db = openDatabase(join(dir, 'rhizome.db'));
  const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder, log: memoryLogger() }));
  await s.embedding.init();
  const { tenant_id: tenantId, api_key: apiKey } = await s.tenants.create('default');
  writeFileSync(join(dir, 'credentials'), JSON.stringify({ tenant_id: tenantId, api_key: apiKey }), { mode: 0o600 });
  const now = new Date().toISOString();
  for (let i = 0; i < n; i += 5000) {
    await s.db.withTx(async () => {
      for (let j = i; j < Math.min(n, i + 5000); j++) {
        // With passages: one note in PASSAGE_EVERY is a long article embedded per passage too.
        const long = passages && j % PASSAGE_EVERY === 0;
        const note = corpus.note(long ? 600 : 80);
        const id = newId('nod');
        const seq = await s.repos.nodes.insert({ id, tenant_id: tenantId, title: note.title, summary: '', body_markdown: note.body, tags: JSON.stringify(note.tags), status: 'raw', created_at: now, updated_at: now });
        await s.repos.vectors.upsert(tenantId, seq, corpus.vector(note.subtopic));
        if (long) await s.repos.passages.replace(tenantId, seq, id, embeddedPassages(note.body).map((p) => ({ ...p, vector: corpus.vector(note.subtopic) })));
        await s.repos.nodes.markEmbedded(tenantId, id, embeddingKey({ title: note.title, summary: '', body_markdown: note.body }));
      }
    });
  }
  db.close();
  return { dir, apiKey };
}

/** The process's resident set and its anonymous part (Linux /proc), in MB; null elsewhere. */
function rssMb(pid: number, key: 'VmRSS' | 'RssAnon' = 'VmRSS'): number | null {
  const kb = procStatusKb(pid, key);
  return Number.isNaN(kb) ? null : Math.round(kb / 1024);
}

interface Start {
  health_ms: number;
  first_semantic_ms: number;
  index_ready_ms: number | null;
  rss_mb: number | null;
  /** When the keyword side's memory was read (the warmer's log line, after the semantic index). */
  keyword_warm_ms: number | null;
  rss_keyword_warm_mb: number | null;
  rss_anon_keyword_warm_mb: number | null;
}

async function oneStart(dir: string, apiKey: string): Promise<Start> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(packageRoot(), 'bin/rhizome.js'), 'serve'], { env: { ...process.env, RHIZOME_DATA_DIR: dir, RHIZOME_PORT: '0', RHIZOME_LOG: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let indexReady: number | null = null;
  let keywordWarm: number | null = null;
  const hear = (d: Buffer) => {
    out += d;
    if (indexReady === null && /semantic index ready/.test(out)) indexReady = performance.now() - t0;
    if (keywordWarm === null && /keyword index warm/.test(out)) keywordWarm = performance.now() - t0;
  };
  child.stdout!.on('data', hear);
  child.stderr!.on('data', hear);
  try {
    let health = 0;
    let url = '';
    while (!health) {
      if (child.exitCode !== null) throw new Error(`server exited:\n${out}`);
      url = /listening on (http:\/\/[\d.:]+)/.exec(out)?.[1] ?? '';
      if (url) {
        try {
          if ((await fetch(url + '/health', { signal: AbortSignal.timeout(1000) })).ok) health = performance.now() - t0;
        } catch {
          /* not yet */
        }
      }
      if (!health) await new Promise((r) => setTimeout(r, 10));
    }
    const res = await fetch(url + '/api/v1/nodes?mode=semantic&query=' + encodeURIComponent('river delta sediment'), { headers: { Authorization: `ApiKey ${apiKey}` } });
    if (!res.ok) throw new Error(`semantic query: ${res.status}`);
    const semantic = performance.now() - t0;
    for (let i = 0; i < 2400 && indexReady === null; i++) await new Promise((r) => setTimeout(r, 50));
    // RSS once settled: the index complete (waited for up to 2 min: ~30 s at 1M), a few searches of each mode answered.
    for (const mode of ['semantic', 'hybrid', 'keyword']) {
      for (const q of ['river delta sediment', 'protein folding energy', 'medieval trade routes']) {
        await fetch(`${url}/api/v1/nodes?mode=${mode}&query=${encodeURIComponent(q)}`, { headers: { Authorization: `ApiKey ${apiKey}` } }).then((r) => r.arrayBuffer());
      }
    }
    await new Promise((r) => setTimeout(r, 2000));
    const rss = rssMb(child.pid!);
    // ...and once the keyword side's terms are in memory too (up to 3 min more: ~1 min at 1M).
    for (let i = 0; i < 3600 && keywordWarm === null; i++) await new Promise((r) => setTimeout(r, 50));
    // At rest: SQLite's keyword reader thread has ended (IDLE_MS after its last read).
    await new Promise((r) => setTimeout(r, IDLE_MS + 2000));
    const round = (x: number | null) => (x === null ? null : Math.round(x));
    return { health_ms: Math.round(health), first_semantic_ms: Math.round(semantic), index_ready_ms: round(indexReady), rss_mb: rss, keyword_warm_ms: round(keywordWarm), rss_keyword_warm_mb: keywordWarm === null ? null : rssMb(child.pid!), rss_anon_keyword_warm_mb: keywordWarm === null ? null : rssMb(child.pid!, 'RssAnon') };
  } finally {
    // A server that already exited (and said why: the error above) has no 'exit' to wait for.
    if (child.exitCode === null && child.signalCode === null) {
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await done;
    }
  }
}

export async function benchColdStart(o: { nodes: number; runs: number; passages?: boolean }): Promise<object> {
  const { dir, apiKey } = await writeFolder(o.nodes, o.passages);
  try {
    const runs: Start[] = [];
    for (let i = 0; i < o.runs; i++) runs.push(await oneStart(dir, apiKey));
    const sorted = (k: 'health_ms' | 'first_semantic_ms') => runs.map((r) => r[k]).sort((a, b) => a - b);
    return {
      nodes: o.nodes,
      passages: o.passages ? `one note in ${PASSAGE_EVERY}, ~4,000 characters` : 'none',
      load_average_1m: Math.round(loadavg()[0] * 100) / 100,
      health_ms: sorted('health_ms'),
      first_semantic_ms: sorted('first_semantic_ms'),
      index_ready_ms: runs.map((r) => r.index_ready_ms),
      rss_mb: runs.map((r) => r.rss_mb),
      keyword_warm_ms: runs.map((r) => r.keyword_warm_ms),
      rss_keyword_warm_mb: runs.map((r) => r.rss_keyword_warm_mb),
      rss_anon_keyword_warm_mb: runs.map((r) => r.rss_anon_keyword_warm_mb),
      targets: { health_ms: 1000, first_semantic_ms: 2000, rss_mb: 450 },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
