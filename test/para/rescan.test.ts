// POST /para/rescan: answers {queued} at once, once per 5 minutes per tenant, and the
// limit lives in the database so a restart does not reset it.
import { raw } from '../helpers/raw.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { buildContainer } from '../../src/container.js';
import { wire } from '../../src/wiring.js';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { createApp } from '../../src/http/app.js';
import { memoryLogger } from '../../src/logger.js';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { openTestDatabase } from '../helpers/test-database.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const rescan = (auth?: string) => t.req('POST', '/api/v1/para/rescan', undefined, auth);
const jobs = async (tenantId: string) =>
  await raw(t.s.db).prepare("SELECT kind, payload FROM jobs WHERE tenant_id = ? AND kind = 'para_classify' AND status = 'queued' ORDER BY id").all(tenantId);

describe('POST /para/rescan', () => {
  it('queues every orphan for classification and answers how many', async () => {
    t = await makeTestApp();
    const a = await (await t.req('POST', '/api/v1/para', { category: 'areas', label: 'Health' })).json();
    await t.req('POST', '/api/v1/nodes', { title: 'filed', para_item_ids: [a.id] });
    for (const title of ['one', 'two', 'three']) await t.req('POST', '/api/v1/nodes', { title });
    await raw(t.s.db).prepare("DELETE FROM jobs WHERE kind = 'para_classify'").run();

    const res = await rescan();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ queued: 3 });
    expect(await jobs(t.tenantId)).toEqual([{ kind: 'para_classify', payload: '{"reconsider":true}' }]);
  });

  it('folds repeated requests into one queued job (item creation, rescan) and one per matched item', async () => {
    t = await makeTestApp();
    await t.req('POST', '/api/v1/nodes', { title: 'orphan' });
    const ids: string[] = [];
    for (const label of ['A', 'B', 'C']) ids.push((await (await t.req('POST', '/api/v1/para', { category: 'areas', label })).json()).id);
    expect(await (await rescan()).json()).toEqual({ queued: 1 });
    for (let i = 0; i < 2; i++) expect(await (await t.req('POST', `/api/v1/para/${ids[0]}/match`)).json()).toEqual({ queued: 1 });
    expect(await jobs(t.tenantId)).toEqual([
      { kind: 'para_classify', payload: '{"reconsider":true}' },
      { kind: 'para_classify', payload: JSON.stringify({ item_id: ids[0] }) },
    ]);
  });

  it('queues nothing when there is no active item to classify into', async () => {
    t = await makeTestApp();
    await t.req('POST', '/api/v1/nodes', { title: 'lonely' });
    expect(await (await rescan()).json()).toEqual({ queued: 0 });
    expect(await jobs(t.tenantId)).toEqual([]);
  });

  it('rejects a second call within 5 minutes with 429 and Retry-After counting down, per tenant', async () => {
    t = await makeTestApp();
    expect((await rescan()).status).toBe(200);

    let res = await rescan();
    await expectProblem(res.clone(), 429, 'rate_limited');
    expect(res.headers.get('retry-after')).toBe('300');

    t.clock.advance(100_500);
    res = await rescan();
    await expectProblem(res.clone(), 429, 'rate_limited');
    expect(res.headers.get('retry-after')).toBe('200');

    // Another tenant has its own budget.
    const beta = await t.tenant('beta');
    expect((await rescan(beta.auth)).status).toBe(200);
    await expectProblem(await rescan(beta.auth), 429, 'rate_limited');

    t.clock.advance(199_000);
    res = await rescan();
    expect(res.headers.get('retry-after')).toBe('1');
    t.clock.advance(500); // exactly 5 minutes after the first call
    expect((await rescan()).status).toBe(200);
    // The rejected calls did not extend the window; the accepted one starts a new one.
    const again = await rescan();
    await expectProblem(again.clone(), 429, 'rate_limited');
    expect(again.headers.get('retry-after')).toBe('300');
  });

  it('keeps the limit across a restart (new services over the same database file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rhizome-para-'));
    const dbPath = join(dir, 'rhizome.db');
    t = await makeTestApp({ dbPath });
    expect((await rescan()).status).toBe(200);
    const key = t.key;
    const startedAt = t.clock.now();
    await t.close();

    const config = loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' });
    const store = await openTestDatabase(dbPath);
    const db = store.db;
    const clock = new ManualClock(startedAt + 60_000);
    const s = wire(await buildContainer({ config, db, embedder: new HashEmbedder(), clock, log: memoryLogger() }));
    const app = createApp(s);
    const call = () => app.request('/api/v1/para/rescan', { method: 'POST', headers: { Authorization: `ApiKey ${key}` } });
    try {
      const res = await call();
      await expectProblem(res.clone(), 429, 'rate_limited');
      expect(res.headers.get('retry-after')).toBe('240');
      clock.advance(240_000);
      expect((await call()).status).toBe(200);
    } finally {
      await s.queue.stop();
      await store.close();
      t = undefined as never;
    }
  });
});
