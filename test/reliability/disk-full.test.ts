// A full disk, for real inside SQLite: PRAGMA max_page_count caps the database at its
// current size, so every write that needs a new page fails with SQLITE_FULL exactly as on
// a full file system. Writes answer 507, reads and authentication keep working, /health says
// degraded, jobs wait (never `failed`, never stuck `running`, logged once), and everything
// resumes by itself when space returns.
import { raw } from '../helpers/raw.js';
import type { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_RETRY_MS } from '../../src/jobs/queue.js';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => (t = await makeTestApp()));
afterEach(() => t.close());

const fill = () => {
  const pages = (t.s.db as SqliteStore).handle.pragma('page_count', { simple: true }) as number;
  (t.s.db as SqliteStore).handle.pragma(`max_page_count = ${pages}`);
};
const free = () => void (t.s.db as SqliteStore).handle.pragma('max_page_count = 4294967294');
const big = (i: number) => ({ title: `note ${i}`, content: `${'lorem ipsum dolor sit amet '.repeat(400)} ${i}` });
const jobStates = async () => await raw(t.s.db).prepare('SELECT status, count(*) AS n FROM jobs GROUP BY status').all() as Array<{ status: string; n: number }>;

async function settle(ms: number) {
  for (let waited = 0; waited < ms; waited += 50) {
    t.clock.advance(50);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('disk full', () => {
  it('writes answer 507 insufficient_storage, reads and a never-used key still work, health says degraded, then it all recovers', async () => {
    const fresh = (await t.s.auth.createApiKey(t.tenantId, 'never used')).key; // its first use wants to write last_used_at
    const n0 = await (await t.req('POST', '/api/v1/nodes', big(0))).json();
    fill();
    const statuses: number[] = [];
    for (let i = 1; i <= 10; i++) {
      const res = await t.req('POST', '/api/v1/nodes', big(i));
      statuses.push(res.status);
      if (res.status !== 201) {
        const body = await expectProblem(res, 507, 'insufficient_storage');
        expect(body.detail).toMatch(/disk/);
      }
    }
    expect(statuses.filter((s) => s === 507).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 201 || s === 507)).toBe(true);

    expect((await t.req('GET', `/api/v1/nodes/${n0.id}`, undefined, `ApiKey ${fresh}`)).status).toBe(200);
    expect((await t.req('GET', '/api/v1/nodes?per_page=5')).status).toBe(200);
    const h = await (await t.req('GET', '/health')).json();
    expect(h.status).toBe('degraded');
    expect(h.reason).toMatch(/disk is full/);
    const anon = await (await t.req('GET', '/health', undefined, null)).json();
    expect(anon).toMatchObject({ status: 'degraded', reason: expect.stringMatching(/disk/) });

    free();
    const after = await t.req('POST', '/api/v1/nodes', big(99));
    expect(after.status).toBe(201);
    expect((await (await t.req('GET', '/health')).json()).status).toBe('ok');
    // Nothing acknowledged was lost.
    const created = (await after.json()).id;
    expect((await t.req('GET', `/api/v1/nodes/${created}`)).status).toBe(200);
    expect((await t.req('GET', `/api/v1/nodes/${n0.id}`)).status).toBe(200);
  });

  it('jobs hit by a full disk are retried, never failed or stuck, logged once; they finish when space returns', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await (await t.req('POST', '/api/v1/nodes', big(i))).json()).id);
    const cap = await t.req('POST', '/api/v1/captures', { title: 'A note', content_type: 'note', source: 'cli', selected_text: 'Remember the milk '.repeat(300) });
    expect(cap.status).toBe(201);
    const capture = await cap.json();
    fill();
    await t.s.queue.start();
    await settle(STORAGE_RETRY_MS * 6); // several rounds of retries against the full disk
    const states = await jobStates();
    expect(states.find((s) => s.status === 'failed')).toBeUndefined();
    expect(states.reduce((a, s) => a + s.n, 0)).toBeGreaterThan(0); // the work is still owed
    const c = await (await t.req('GET', `/api/v1/captures/${capture.id}`)).json();
    expect(c.status).not.toBe('failed');
    const errorLines = t.log.lines.filter((l) => /ERROR|WARN/.test(l) && /disk|full/i.test(l));
    expect(errorLines.length).toBeGreaterThan(0); // the disk really refused the jobs' writes
    expect(errorLines.length).toBeLessThanOrEqual(6); // once per kind and interval, not per attempt
    expect(t.log.lines.some((l) => l.includes('ERROR') && l.includes('at '))).toBe(false); // no stack traces
    expect((await (await t.req('GET', '/health')).json()).status).toBe('degraded');

    free();
    await settle(STORAGE_RETRY_MS * 2);
    await t.s.queue.idle(20_000);
    for (let i = 0; i < 20 && (await jobStates()).length; i++) {
      await settle(STORAGE_RETRY_MS);
      await t.s.queue.idle(20_000);
    }
    expect(await jobStates()).toEqual([]);
    const done = await (await t.req('GET', `/api/v1/captures/${capture.id}`)).json();
    expect(done.status).toBe('completed');
    const embedded = await raw(t.s.db).prepare('SELECT count(*) FROM nodes n WHERE n.id IN (SELECT value FROM json_each(?)) AND n.embedded_hash IS NOT NULL').pluck().get(JSON.stringify(ids));
    expect(embedded).toBe(ids.length);
    expect((await t.req('POST', '/api/v1/nodes', big(100))).status).toBe(201);
    expect((await (await t.req('GET', '/health')).json()).status).toBe('ok');
  }, 60_000);
});
