// A fresh Rhizome per test: real SQLite (in memory) with the real schema and sqlite-vec
// (or PostgreSQL: test-database.ts),
// a deterministic embedder, a manual clock, and a tenant with an API key.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { buildContainer, type Container } from '../../src/container.js';
import { wire } from '../../src/wiring.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { createApp } from '../../src/http/app.js';
import { memoryLogger } from '../../src/logger.js';
import { openTestDatabase } from './test-database.js';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  s: Container;
  clock: ManualClock;
  log: ReturnType<typeof memoryLogger>;
  tenantId: string;
  key: string;
  /** JSON request as tenant `alpha` (or with the given Authorization header). */
  req(method: string, path: string, body?: unknown, auth?: string | null): Promise<Response>;
  /** Another tenant with its own key. */
  tenant(name: string): Promise<{ tenantId: string; key: string; auth: string }>;
  close(): Promise<void>;
}

export async function makeTestApp(opts: { embedder?: Embedder; config?: Partial<Config>; dbPath?: string } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rhizome-test-'));
  const config = loadConfig({ RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' }, opts.config);
  const store = await openTestDatabase(opts.dbPath);
  const db = store.db;
  const clock = new ManualClock(Date.now());
  const log = memoryLogger();
  const s = wire(await buildContainer({ config, db, embedder: opts.embedder ?? new HashEmbedder(), clock, log }));
  // As at server start-up: the model's vector table is set up before the first write.
  s.embedding.init().catch((e) => log.error('embedding initialisation failed', e));
  const app = createApp(s);
  // Reopening a database file (restart tests) reuses its tenant with a fresh key.
  const existing = await s.tenants.findByName('alpha');
  const first = existing ? { tenant_id: existing.id, api_key: (await s.auth.createApiKey(existing.id, 'test')).key } : await s.tenants.create('alpha');
  const req = async (method: string, path: string, body?: unknown, auth?: string | null) => {
    const headers: Record<string, string> = {};
    if (auth !== null) headers.Authorization = auth ?? `ApiKey ${first.api_key}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (typeof body === 'string') {
      payload = body;
      headers['Content-Type'] = 'application/json';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    return app.request(path, { method, headers, body: payload });
  };
  return {
    app,
    s,
    clock,
    log,
    tenantId: first.tenant_id,
    key: first.api_key,
    req,
    async tenant(name) {
      const t = await s.tenants.create(name);
      return { tenantId: t.tenant_id, key: t.api_key, auth: `ApiKey ${t.api_key}` };
    },
    async close() {
      await s.queue.stop();
      await s.limiters.close();
      await store.close();
    },
  };
}

/** Asserts the problem+json shape and returns the body. */
export async function expectProblem(res: Response, status: number, code: string) {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status} ${code}, got ${res.status}: ${text}`);
  if (!res.headers.get('content-type')?.startsWith('application/problem+json')) throw new Error(`not problem+json: ${res.headers.get('content-type')}`);
  const body = JSON.parse(text);
  if (body.code !== code || body.status !== status || typeof body.title !== 'string' || typeof body.detail !== 'string' || typeof body.type !== 'string') {
    throw new Error(`bad problem body: ${text}`);
  }
  return body as { type: string; title: string; status: number; detail: string; code: string; errors?: { path: string; message: string }[] };
}
