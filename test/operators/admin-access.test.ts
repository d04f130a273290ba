// Who may use the operator routes: every /api/v1/admin route and /metrics, swept from the
// app's own route table, refuses a tenant's valid API key and a tenant user's bearer token
// with 403 forbidden, answers 401 to no or wrong credentials, and an operator key names no
// tenant (403 on tenant routes). Nothing changes on any refused call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../src/db/store/sql.js';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { operatorAuth } from './helpers.js';

let t: TestApp;
let op: string;
let bearer: string;
const routes: Array<{ method: string; path: string }> = [];

beforeAll(async () => {
  // The sweep fails dozens of authentications on purpose: the throttle (tested in
  // test/auth/throttle.test.ts, and here once below) would turn them into 429s.
  t = await makeTestApp({ config: { limits: { authFailuresPerAddress: 0, authFailuresPerKey: 0, trustProxy: false, tenantBudgetPerMinute: 0 } } });
  op = await operatorAuth(t);
  const user = await t.s.auth.addUser('ada@example.com', 'alpha');
  bearer = `Bearer ${(await t.s.auth.startSession(t.tenantId, user.id)).access_token}`;
  const seen = new Set<string>();
  for (const r of t.app.routes) {
    if (r.method === 'ALL' || !(r.path.startsWith('/api/v1/admin') || r.path === '/metrics')) continue;
    const key = `${r.method} ${r.path}`;
    if (!seen.has(key)) seen.add(key), routes.push({ method: r.method, path: r.path.replace(':id', t.tenantId) });
  }
});
afterAll(() => t.close());

const tenantsSnapshot = async () => JSON.stringify(await t.s.db.all(sql`SELECT * FROM tenants ORDER BY id`));

describe('operator routes', () => {
  it('the sweep covers create, list, get, suspend, resume, first key, deletion (both steps) and /metrics', () => {
    expect(routes.map((r) => `${r.method} ${r.path.replace(t.tenantId, ':id')}`).sort()).toEqual([
      'DELETE /api/v1/admin/tenants/:id',
      'GET /api/v1/admin/tenants',
      'GET /api/v1/admin/tenants/:id',
      'GET /metrics',
      'POST /api/v1/admin/tenants',
      'POST /api/v1/admin/tenants/:id/deletion',
      'POST /api/v1/admin/tenants/:id/keys',
      'POST /api/v1/admin/tenants/:id/resume',
      'POST /api/v1/admin/tenants/:id/suspend',
    ]);
  });

  it('a tenant API key and a tenant bearer token get 403 forbidden on every one, and nothing changes', async () => {
    const before = await tenantsSnapshot();
    expect(before).toContain(t.tenantId);
    for (const auth of [`ApiKey ${t.key}`, bearer]) {
      for (const r of routes) {
        const path = r.method === 'DELETE' ? `${r.path}?confirm=x` : r.path;
        const res = await t.req(r.method, path, r.method === 'POST' ? { name: 'intruder' } : undefined, auth);
        const body = await expectProblem(res, 403, 'forbidden').catch((e) => {
          throw new Error(`${r.method} ${path} with ${auth.split(' ')[0]}: ${e.message}`);
        });
        expect(body.detail).toMatch(/operator key/);
      }
    }
    expect(await tenantsSnapshot()).toBe(before);
  });

  it('no credentials, a wrong operator key or a malformed header: 401 on every one', async () => {
    const wrong = `ApiKey ${op.split(' ')[1].split('.')[0]}.not-the-secret`;
    for (const auth of [null, wrong, 'ApiKey opk_unknown.secret', 'Basic Zm9vOmJhcg==']) {
      for (const r of routes) await expectProblem(await t.req(r.method, r.path, undefined, auth), 401, 'unauthorized');
    }
  });

  it('the operator key works on them, and names no tenant: 403 on tenant routes and MCP', async () => {
    expect((await t.req('GET', '/api/v1/admin/tenants', undefined, op)).status).toBe(200);
    expect((await t.req('GET', '/metrics', undefined, op)).status).toBe(200);
    for (const path of ['/api/v1/nodes', '/api/v1/auth/api-keys', '/api/v1/para/tree']) {
      await expectProblem(await t.req('GET', path, undefined, op), 403, 'forbidden');
    }
    await expectProblem(await t.req('POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, op), 403, 'forbidden');
  });

  it("/health with the operator key shows the whole install's queue; a tenant's key only its own", async () => {
    const beta = await t.tenant('beta-health');
    expect((await t.req('POST', '/api/v1/nodes', { title: 'queued for alpha' })).status).toBe(201);
    expect((await t.req('POST', '/api/v1/nodes', { title: 'queued for beta' }, beta.auth)).status).toBe(201);
    const health = async (auth: string) => (await (await t.req('GET', '/health', undefined, auth)).json()) as { jobs: { queued: number } };
    expect((await health(beta.auth)).jobs.queued).toBe(1);
    expect((await health(op)).jobs.queued).toBe(await t.s.status.queueDepth());
    expect(await t.s.status.queueDepth()).toBeGreaterThanOrEqual(2);
    await expectProblem(await t.req('GET', '/health', undefined, 'ApiKey opk_unknown.secret'), 401, 'unauthorized');
  });

  it('a revoked operator key stops working at once', async () => {
    const k = await t.s.operators.create('short-lived');
    const auth = `ApiKey ${k.key}`;
    expect((await t.req('GET', '/api/v1/admin/tenants', undefined, auth)).status).toBe(200);
    await t.s.operators.revoke(k.id);
    await expectProblem(await t.req('GET', '/api/v1/admin/tenants', undefined, auth), 401, 'unauthorized');
    expect((await t.s.operators.list()).map((x) => x.id)).not.toContain(k.id);
  });
});

describe('guessing operator keys', () => {
  it('counts towards the failed-auth throttle like any credential: 429 past the limit', async () => {
    const g = await makeTestApp({ config: { limits: { authFailuresPerAddress: 2, authFailuresPerKey: 0, trustProxy: false, tenantBudgetPerMinute: 0 } } });
    try {
      for (let i = 0; i < 2; i++) await expectProblem(await g.req('GET', '/metrics', undefined, 'ApiKey opk_guess.wrong'), 401, 'unauthorized');
      await expectProblem(await g.req('GET', '/metrics', undefined, 'ApiKey opk_guess.wrong'), 429, 'rate_limited');
    } finally {
      await g.close();
    }
  });
});
