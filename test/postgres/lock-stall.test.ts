// One slow statement ties up one pooled connection, never the process: while another
// session holds an ACCESS EXCLUSIVE lock on `nodes` for 4 s, the requests that do not need
// that table (health, another tenant's PARA list and API keys) answer at once, the event loop
// never stalls (an in-process probe ticking every 10 ms), and the request that needs `nodes`
// answers once the lock goes. Before the asynchronous store each of them took the whole 4 s.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { buildContainer, type Container } from '../../src/container.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { createApp } from '../../src/http/app.js';
import { memoryLogger } from '../../src/logger.js';
import { wire } from '../../src/wiring.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

const HOLD_MS = 4_000;

describePg('a lock on one table while the server serves', () => {
  let pgdb: TestPgDatabase;
  let store: PgStore;
  let s: Container;
  let app: ReturnType<typeof createApp>;
  let a: { tenant_id: string; api_key: string };
  let b: { tenant_id: string; api_key: string };
  const req = async (key: string, path: string) => await app.request(path, { headers: { Authorization: `ApiKey ${key}` } });

  beforeAll(async () => {
    pgdb = await createTestDatabase({ migrated: true });
    store = new PgStore(pgdb.url);
    s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: '/tmp/rz-lock-stall', RHIZOME_LOG: 'silent' }), db: store, embedder: new HashEmbedder(), clock: new ManualClock(Date.now()), log: memoryLogger() }));
    app = createApp(s);
    a = await s.tenants.create('alpha');
    b = await s.tenants.create('beta');
    await s.nodes.create(a.tenant_id, { title: 'Compost heap', content: 'Turn the compost every week.' });
    await s.para.create(b.tenant_id, { category: 'areas', label: 'Garden' });
    // Every statement the requests below need has run once (prepared), so the timings are the lock's alone.
    for (const [key, path] of [[a.api_key, '/api/v1/nodes?query=compost'], [b.api_key, '/api/v1/para'], [b.api_key, '/api/v1/auth/api-keys'], [b.api_key, '/health']] as const) {
      expect((await req(key, path)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await s?.queue.stop();
    await s?.limiters.close();
    await store?.close();
    await pgdb?.drop();
  });

  it('answers what does not need the locked table within 250 ms, with no event-loop gap over 100 ms', async () => {
    const locker = await pgdb.client();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE nodes IN ACCESS EXCLUSIVE MODE');
    let last = performance.now();
    let worstGap = 0;
    const probe = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
    }, 10);
    const lockedAt = performance.now();
    try {
      const waiting = req(a.api_key, '/api/v1/nodes?query=compost').then((r) => ({ status: r.status, ms: performance.now() - lockedAt }));
      await new Promise((r) => setTimeout(r, 200)); // the search is now waiting on the lock
      const timings: Record<string, number> = {};
      for (const [name, key, path] of [['health', b.api_key, '/health'], ['para', b.api_key, '/api/v1/para'], ['api keys', b.api_key, '/api/v1/auth/api-keys']] as const) {
        const t0 = performance.now();
        const r = await req(key, path);
        timings[name] = performance.now() - t0;
        expect(r.status, name).toBe(200);
      }
      for (const [name, ms] of Object.entries(timings)) expect(ms, `${name} took ${Math.round(ms)} ms`).toBeLessThan(250);
      await new Promise((r) => setTimeout(r, HOLD_MS - (performance.now() - lockedAt)));
      await locker.query('COMMIT');
      const searched = await waiting;
      expect(searched.status).toBe(200);
      expect(searched.ms).toBeGreaterThanOrEqual(HOLD_MS - 50); // it did wait for the lock
      expect(worstGap, `the event loop stalled for ${Math.round(worstGap)} ms`).toBeLessThan(100);
    } finally {
      clearInterval(probe);
      await locker.query('ROLLBACK').catch(() => {});
    }
  }, 30_000);
});
