// A tenant's life as an operator runs it over HTTP: created with a first key, listed,
// suspended (its keys and sessions get 403 tenant_suspended, its data kept) and resumed,
// given a key when it has none, and deleted in two steps — after which nothing of it is
// left in any table and the other tenants are untouched.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TenantPurgeRepo } from '../../src/repos/tenant-purge.repo.js';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { operatorAuth } from './helpers.js';

let t: TestApp;
let op: string;
const admin = (method: string, path: string, body?: unknown) => t.req(method, `/api/v1/admin${path}`, body, op);

beforeEach(async () => {
  t = await makeTestApp();
  op = await operatorAuth(t);
});
afterEach(() => t.close());

async function createTenant(name: string) {
  const res = await admin('POST', '/tenants', { name });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; name: string; status: string; api_key: string; api_keys: number };
}

describe('create and list', () => {
  it('creates a tenant with a working first key; lists every tenant with its status and size', async () => {
    const beta = await createTenant('beta');
    expect(beta).toMatchObject({ name: 'beta', status: 'active', suspended_at: null, nodes: 0, api_keys: 1 });
    const auth = `ApiKey ${beta.api_key}`;
    expect((await t.req('POST', '/api/v1/nodes', { title: 'Beta note' }, auth)).status).toBe(201);
    const list = (await (await admin('GET', '/tenants')).json()) as { data: Array<{ id: string; name: string; nodes: number; api_key?: string }> };
    expect(list.data.map((x) => x.name)).toEqual(['alpha', 'beta']);
    expect(list.data.find((x) => x.name === 'beta')).toMatchObject({ nodes: 1 });
    expect(list.data.every((x) => x.api_key === undefined)).toBe(true);
    expect(await (await admin('GET', `/tenants/${beta.id}`)).json()).toMatchObject({ id: beta.id, nodes: 1 });
  });

  it('bad input is a 400 and creates nothing', async () => {
    await expectProblem(await admin('POST', '/tenants', { name: 'has space' }), 400, 'validation_failed');
    await expectProblem(await admin('POST', '/tenants', { name: '' }), 400, 'validation_failed');
    await expectProblem(await admin('POST', '/tenants', {}), 400, 'validation_failed');
    await expectProblem(await admin('POST', '/tenants', { name: 'ok', extra: 1 }), 400, 'validation_failed');
    await expectProblem(await admin('POST', '/tenants', '{"name":'), 400, 'validation_failed');
    await expectProblem(await admin('POST', '/tenants', { name: 'alpha' }), 400, 'validation_failed');
    await expectProblem(await admin('GET', '/tenants?page=2'), 400, 'validation_failed');
    expect(((await (await admin('GET', '/tenants')).json()) as { data: unknown[] }).data).toHaveLength(1);
    await expectProblem(await admin('GET', '/tenants/ten_nope'), 404, 'not_found');
  });
});

describe('suspend and resume', () => {
  it("a suspended tenant's keys and sessions get 403 tenant_suspended; other tenants carry on; resume restores it", async () => {
    const beta = await createTenant('beta');
    const key = `ApiKey ${beta.api_key}`;
    const user = await t.s.auth.addUser('bea@example.com', 'beta');
    const bearer = `Bearer ${(await t.s.auth.startSession(beta.id, user.id)).access_token}`;
    const node = (await (await t.req('POST', '/api/v1/nodes', { title: 'Kept while suspended' }, key)).json()) as { id: string };

    const res = await admin('POST', `/tenants/${beta.id}/suspend`);
    expect(res.status).toBe(200);
    const suspended = (await res.json()) as { status: string; suspended_at: string };
    expect(suspended.status).toBe('suspended');
    expect(suspended.suspended_at).toMatch(/^\d{4}-/);
    for (const auth of [key, bearer]) {
      const p = await expectProblem(await t.req('GET', `/api/v1/nodes/${node.id}`, undefined, auth), 403, 'tenant_suspended');
      expect(p.detail).toMatch(/suspended/);
      await expectProblem(await t.req('POST', '/api/v1/nodes', { title: 'refused' }, auth), 403, 'tenant_suspended');
    }
    await expectProblem(await t.req('POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, key), 403, 'tenant_suspended');
    expect((await t.req('GET', '/api/v1/nodes')).status).toBe(200); // alpha is not affected
    // Suspending again keeps the first time.
    expect(await (await admin('POST', `/tenants/${beta.id}/suspend`)).json()).toMatchObject({ suspended_at: suspended.suspended_at });

    const resumed = await admin('POST', `/tenants/${beta.id}/resume`);
    expect(await resumed.json()).toMatchObject({ status: 'active', suspended_at: null });
    const back = await t.req('GET', `/api/v1/nodes/${node.id}`, undefined, key);
    expect(back.status).toBe(200);
    expect(((await back.json()) as { title: string }).title).toBe('Kept while suspended');
    expect((await t.req('GET', '/api/v1/nodes', undefined, bearer)).status).toBe(200);
    await expectProblem(await admin('POST', '/tenants/ten_nope/suspend'), 404, 'not_found');
  });
});

describe('first key', () => {
  it('issues a key only to a tenant that has no working key (409 otherwise)', async () => {
    const beta = await createTenant('beta');
    const key = `ApiKey ${beta.api_key}`;
    await expectProblem(await admin('POST', `/tenants/${beta.id}/keys`, { name: 'operator-made' }), 409, 'conflict');
    const keys = (await (await t.req('GET', '/api/v1/auth/api-keys', undefined, key)).json()) as { data: Array<{ id: string }> };
    expect((await t.req('DELETE', `/api/v1/auth/api-keys/${keys.data[0].id}`, undefined, key)).status).toBe(204);
    await expectProblem(await t.req('GET', '/api/v1/nodes', undefined, key), 401, 'unauthorized');

    await expectProblem(await admin('POST', `/tenants/${beta.id}/keys`, { name: '' }), 400, 'validation_failed');
    const res = await admin('POST', `/tenants/${beta.id}/keys`, { name: 'recovery' });
    expect(res.status).toBe(201);
    const made = (await res.json()) as { id: string; name: string; key: string };
    expect(made.name).toBe('recovery');
    expect((await t.req('GET', '/api/v1/nodes', undefined, `ApiKey ${made.key}`)).status).toBe(200);
    await expectProblem(await admin('POST', `/tenants/${beta.id}/keys`), 409, 'conflict');
    await expectProblem(await admin('POST', '/tenants/ten_nope/keys'), 404, 'not_found');
  });
});

describe('delete', () => {
  async function populate(auth: string, word: string) {
    const post = async (path: string, body: unknown) => {
      const res = await t.req('POST', path, body, auth);
      expect(res.status, `${path}: ${await res.clone().text()}`).toBeLessThan(300);
      return (await res.json()) as { id: string };
    };
    const n1 = await post('/api/v1/nodes', { title: `${word} one`, content: `${word} compost and soil`, tags: [word] });
    const n2 = await post('/api/v1/nodes', { title: `${word} two`, content: `${word} worms` });
    expect((await t.req('PATCH', `/api/v1/nodes/${n1.id}/links`, { links: [{ target_id: n2.id, type: 'related' }] }, auth)).status).toBe(200);
    const para = await post('/api/v1/para', { category: 'projects', label: `${word} garden` });
    expect((await t.req('PATCH', `/api/v1/nodes/${n1.id}`, { para_item_ids: [para.id] }, auth)).status).toBe(200);
    await post('/api/v1/captures', { title: `${word} capture`, content_type: 'note', source: 'cli', selected_text: `${word} text` });
    await post(`/api/v1/nodes/${n1.id}/highlights`, { text: `${word} compost`, note: 'n' });
    await post('/api/v1/webhooks', { url: 'https://example.com/hook', events: ['node.created'] });
    await post('/api/v1/auth/api-keys', { name: 'second' });
    // Embeddings and the in-memory index, as a running server has them.
    t.s.queue.start();
    await t.s.queue.idle();
    await t.s.queue.stop();
    return { n1, n2 };
  }

  const search = async (auth: string | undefined, query: string, mode = 'hybrid') =>
    (await (await t.req('GET', `/api/v1/nodes?query=${encodeURIComponent(query)}&mode=${mode}`, undefined, auth)).json()) as { data: Array<{ id: string }> };

  it('takes a confirmation token, then removes every row of the tenant and nothing of the others', async () => {
    await populate(`ApiKey ${t.key}`, 'alpha');
    const beta = await createTenant('beta');
    const auth = `ApiKey ${beta.api_key}`;
    const user = await t.s.auth.addUser('bea@example.com', 'beta');
    await t.s.auth.startSession(beta.id, user.id);
    const { n1 } = await populate(auth, 'beta');
    expect(t.s.vectors.indexStats(beta.id).vectors + (await t.s.vectors.count(beta.id))).toBeGreaterThan(0);
    const purge = new TenantPurgeRepo(t.s.db); // its catalogue reads: every table with a tenant_id
    const alphaBefore = await purge.remaining(t.tenantId);
    expect(Object.keys(await purge.remaining(beta.id)).length).toBeGreaterThan(8);

    // Without a token, with a wrong one, with another tenant's: 400, nothing deleted.
    await expectProblem(await admin('DELETE', `/tenants/${beta.id}`), 400, 'validation_failed');
    await expectProblem(await admin('DELETE', `/tenants/${beta.id}?confirm=abc.def`), 400, 'validation_failed');
    const alphaToken = ((await (await admin('POST', `/tenants/${t.tenantId}/deletion`)).json()) as { confirmation_token: string }).confirmation_token;
    const p = await expectProblem(await admin('DELETE', `/tenants/${beta.id}?confirm=${alphaToken}`), 400, 'validation_failed');
    expect(p.errors?.[0].path).toBe('confirm');
    expect((await t.req('GET', `/api/v1/nodes/${n1.id}`, undefined, auth)).status).toBe(200);

    const step1 = await admin('POST', `/tenants/${beta.id}/deletion`);
    expect(step1.status).toBe(201);
    const { confirmation_token, expires_at, tenant } = (await step1.json()) as { confirmation_token: string; expires_at: string; tenant: { nodes: number } };
    expect(tenant.nodes).toBeGreaterThanOrEqual(2); // two notes, and the capture's node
    expect(Date.parse(expires_at) - t.clock.now()).toBe(10 * 60_000);
    expect((await t.req('GET', `/api/v1/nodes/${n1.id}`, undefined, auth)).status).toBe(200); // step one changes nothing

    const res = await admin('DELETE', `/tenants/${beta.id}?confirm=${encodeURIComponent(confirmation_token)}`);
    expect(res.status).toBe(200);
    const out = (await res.json()) as { tenant_id: string; deleted_rows: Record<string, number> };
    expect(out.tenant_id).toBe(beta.id);
    expect(out.deleted_rows).toMatchObject({ tenants: 1, nodes: tenant.nodes, captures: 1, webhooks: 1, api_keys: 2, users: 1 });
    expect(out.deleted_rows.highlights).toBeGreaterThanOrEqual(1); // the API one, and the capture's selected text
    expect(out.deleted_rows.links).toBeGreaterThanOrEqual(2);

    expect(await purge.remaining(beta.id)).toEqual({});
    expect(await purge.hasKeywordTable(beta.id)).not.toBe(true);
    expect(t.s.vectors.indexStats(beta.id).vectors).toBe(0);
    await expectProblem(await t.req('GET', '/api/v1/nodes', undefined, auth), 401, 'unauthorized');
    await expectProblem(await admin('GET', `/tenants/${beta.id}`), 404, 'not_found');
    await expectProblem(await admin('DELETE', `/tenants/${beta.id}?confirm=${encodeURIComponent(confirmation_token)}`), 404, 'not_found');

    // Alpha: every row as it was, and its searches still answer from both sides.
    expect(await purge.remaining(t.tenantId)).toEqual(alphaBefore);
    expect((await search(undefined, 'compost', 'keyword')).data.length).toBeGreaterThan(0);
    expect((await search(undefined, 'alpha compost and soil', 'semantic')).data.length).toBeGreaterThan(0);
    // The name is free again.
    expect((await createTenant('beta')).id).not.toBe(beta.id);
  });

  it('a confirmation token expires after ten minutes', async () => {
    const beta = await createTenant('beta');
    const { confirmation_token } = (await (await admin('POST', `/tenants/${beta.id}/deletion`)).json()) as { confirmation_token: string };
    t.clock.advance(10 * 60_000 + 1);
    await expectProblem(await admin('DELETE', `/tenants/${beta.id}?confirm=${encodeURIComponent(confirmation_token)}`), 400, 'validation_failed');
    expect((await admin('GET', `/tenants/${beta.id}`)).status).toBe(200);
  });
});
