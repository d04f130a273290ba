// Capture throughput: notes (text sent with the capture) and articles (fetched from a
// loopback site, ~900 words each, through Readability and the full pipeline), measured
// through the HTTP app in-process on a file database. Reports the acknowledge latency of
// POST /captures and end-to-end captures/s until every capture is completed (the node's
// own embedding job competes for the same queue, as in production).
import { SqliteStore } from '../src/db/store/sqlite-store.js';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { buildContainer } from '../src/container.js';
import { wire } from '../src/wiring.js';
import { closeDatabase, openDatabase } from '../src/db/open.js';
import type { Embedder } from '../src/embed/embedder.js';
import { HashEmbedder } from '../src/embed/hash-embedder.js';
import { WorkerEmbedder } from '../src/embed/worker-embedder.js';
import { createApp } from '../src/http/app.js';

export interface CapturesBenchOptions {
  notes?: number;
  articles?: number;
  /** 'model' = the configured default model in its worker (what users get); 'hash' = pipeline overhead only. */
  embedder?: 'model' | 'hash';
}

const SENTENCES = [
  'Compost feeds the soil with organic matter that worms and microbes turn into humus.',
  'Rotating crops keeps pests that overwinter in the soil from finding their hosts.',
  'Mulch keeps moisture in and weeds out during the hottest weeks of summer.',
  'Beans fix nitrogen, which the next season\'s leafy greens are glad to use.',
  'Deep watering once a week trains roots to grow down rather than sideways.',
  'A soil test every few years tells you which nutrients are actually missing.',
];

function text(words: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; out.join(' ').split(' ').length < words; i++) out.push(SENTENCES[(seed + i * 7) % SENTENCES.length].replace('soil', `soil-${(seed + i) % 13}`));
  return out.join(' ');
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100;
}

export async function benchCaptures(opts: CapturesBenchOptions = {}): Promise<object> {
  const notes = opts.notes ?? 60;
  const articles = opts.articles ?? 30;
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-bench-captures-'));
  const config = loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' }, { allowPrivateFetch: true });
  const db = openDatabase(join(dir, 'rhizome.db'), { synchronous: config.synchronous });
  const embedder: Embedder & { ready?: Promise<void> } =
    opts.embedder === 'hash' ? new HashEmbedder(384) : new WorkerEmbedder({ model: config.embedModel, cacheDir: dir });
  const site = createServer((req, res) => {
    const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? 0);
    const paras = Array.from({ length: 9 }, (_, i) => `<p>${text(100, n + i)}</p>`).join('');
    res.writeHead(200, { 'content-type': 'text/html' }).end(
      `<!doctype html><html><head><title>Garden notes ${n}</title></head><body><nav><a href="/">Home</a> Subscribe!</nav><article><h1>Garden notes ${n}</h1>${paras}</article><footer>© 2026</footer></body></html>`,
    );
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  const addr = site.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const s = wire(await buildContainer({ config, db: new SqliteStore(db), embedder }));
  try {
    await embedder.ready;
    await s.embedding.init();
    const { api_key: key } = await s.tenants.create('bench');
    const app = createApp(s);
    await s.queue.start();
    const headers = { Authorization: `ApiKey ${key}`, 'content-type': 'application/json' };

    const run = async (count: number, body: (i: number) => object) => {
      const acks: number[] = [];
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const a = performance.now();
        const res = await app.request('/api/v1/captures', { method: 'POST', headers, body: JSON.stringify(body(i)) });
        if (res.status !== 201) throw new Error(`capture failed: ${res.status} ${await res.text()}`);
        acks.push(performance.now() - a);
      }
      await s.queue.idle(600_000);
      const seconds = (performance.now() - t0) / 1000;
      return { count, seconds: Math.round(seconds * 100) / 100, captures_per_second: Math.round((count / seconds) * 100) / 100, ack_p50_ms: pct(acks, 50), ack_p95_ms: pct(acks, 95) };
    };
    const note = await run(notes, (i) => ({ title: `Note ${i}`, content_type: 'note', source: 'cli', selected_text: text(80, i) }));
    const article = await run(articles, (i) => ({ title: `Article ${i}`, content_type: 'article', source: 'browser-extension', url: `${base}/post?n=${i}` }));
    const stage_ms = Object.fromEntries(
      (db.prepare(`SELECT stage, avg((julianday(finished_at) - julianday(started_at)) * 86400000) AS ms FROM capture_stages GROUP BY stage`).all() as { stage: string; ms: number }[])
        .map((r) => [r.stage, Math.round(r.ms * 10) / 10]),
    );
    return { bench: 'captures', stage_ms_mean: stage_ms, embedder: embedder.modelId, synchronous: config.synchronous, note, article };
  } finally {
    await s.queue.stop();
    await embedder.close();
    await new Promise<void>((r) => site.close(() => r()));
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}
