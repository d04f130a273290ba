// Does archiving slow capturing? Articles (~900 words, a stylesheet and two images each)
// are captured one after another from a loopback site, with archived copies off and on, in
// the same run. Reported: POST /captures acknowledgement, the capture pipeline's time per
// page (acknowledged → completed, the archive job of the previous page competing for the
// queue as in production), and the archive job's own time per page (completed → archived).
import { SqliteStore } from '../src/db/store/sqlite-store.js';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { buildContainer } from '../src/container.js';
import { wire } from '../src/wiring.js';
import { closeDatabase, openDatabase } from '../src/db/open.js';
import { HashEmbedder } from '../src/embed/hash-embedder.js';
import { createApp } from '../src/http/app.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const WORDS = 'Compost feeds the soil with organic matter that worms and microbes turn into humus over a season. '.repeat(90);

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 10) / 10;
}
const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)) * 10) / 10;

async function runOnce(base: string, articles: number, archive: boolean): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-bench-archive-'));
  const config = loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' }, { allowPrivateFetch: true, archiveMaxBytes: archive ? 20 * 1024 * 1024 : 0 });
  const db = openDatabase(join(dir, 'rhizome.db'), { synchronous: config.synchronous });
  const s = wire(await buildContainer({ config, db: new SqliteStore(db), embedder: new HashEmbedder(384) }));
  try {
    await s.embedding.init();
    const { api_key: key, tenant_id: tenant } = await s.tenants.create('bench');
    const app = createApp(s);
    await s.queue.start();
    const headers = { Authorization: `ApiKey ${key}`, 'content-type': 'application/json' };
    const acks: number[] = [];
    const pipeline: number[] = [];
    const ids: string[] = [];
    for (let i = 0; i < articles; i++) {
      const t0 = performance.now();
      const res = await app.request('/api/v1/captures', { method: 'POST', headers, body: JSON.stringify({ title: `Article ${i}`, content_type: 'article', source: 'api', url: `${base}/post?n=${i}` }) });
      if (res.status !== 201) throw new Error(`capture failed: ${res.status}`);
      acks.push(performance.now() - t0);
      const id = ((await res.json()) as { id: string }).id;
      ids.push(id);
      while ((await s.repos.captures.get(tenant, id))?.status !== 'completed') await new Promise((r) => setTimeout(r, 1));
      pipeline.push(performance.now() - t0);
    }
    await s.queue.idle(600_000);
    const archiveMs: number[] = [];
    for (const id of ids) {
      const ev = await s.repos.captures.events(tenant, id);
      const done = ev.find((e) => e.kind === 'completed');
      const kept = ev.find((e) => e.kind === 'snapshot_kept');
      if (done && kept) archiveMs.push(Date.parse(kept.at) - Date.parse(done.at));
    }
    return {
      archive, articles, ack_p50_ms: pct(acks, 50), ack_p95_ms: pct(acks, 95),
      pipeline_ms_per_page_mean: mean(pipeline), pipeline_ms_per_page_p50: pct(pipeline, 50), pipeline_ms_per_page_p95: pct(pipeline, 95),
      ...(archive ? { archived: archiveMs.length, archive_ms_per_page_mean: mean(archiveMs) } : {}),
    };
  } finally {
    await s.queue.stop();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchArchive(opts: { articles?: number } = {}): Promise<object> {
  const articles = opts.articles ?? 30;
  const site = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/style.css') return res.writeHead(200, { 'content-type': 'text/css' }).end(`body { font: 17px/1.5 serif; background: url(/bg.png); } h1 { color: #243; }`);
    if (u.pathname.endsWith('.png')) return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    const n = Number(u.searchParams.get('n') ?? 0);
    res.writeHead(200, { 'content-type': 'text/html' }).end(
      `<!doctype html><html><head><title>Garden notes ${n}</title><link rel="stylesheet" href="/style.css"><script src="/app.js"></script></head><body><article><h1>Garden notes ${n}</h1><img src="/figure-${n}.png" alt="figure"><p>${WORDS}</p></article></body></html>`,
    );
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  const addr = site.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  try {
    // Off then on, then off again: the first run warms the process for both.
    await runOnce(base, Math.min(5, articles), false);
    const before = await runOnce(base, articles, false);
    const after = await runOnce(base, articles, true);
    return { bench: 'archive', embedder: 'hash', before, after };
  } finally {
    await new Promise<void>((r) => site.close(() => r()));
  }
}
