// Cross-tenant sweep: tenant B calls every route and method of the OpenAPI document with
// tenant A's ids. Every call naming one of A's resources is a 404, no response carries A's
// ids or text, and A's rows are byte-for-byte unchanged afterwards.
import { raw } from '../helpers/raw.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let a: Record<string, string>;
const SECRET = 'zanzibar-quokka-7731';

beforeAll(async () => {
  t = await makeTestApp();
  const post = async (path: string, body: unknown) => {
    const res = await t.req('POST', path, body);
    expect(res.status, `${path}: ${res.status}`).toBeLessThan(300);
    return res.json();
  };
  const n1 = await post('/api/v1/nodes', { title: `A one ${SECRET}`, content: `private ${SECRET}` });
  const n2 = await post('/api/v1/nodes', { title: `A two ${SECRET}`, content: `private ${SECRET}` });
  const link = await t.req('PATCH', `/api/v1/nodes/${n1.id}/links`, { links: [{ target_id: n2.id, type: 'related' }] });
  expect(link.status).toBe(200);
  const para = await post('/api/v1/para', { category: 'projects', label: `A project ${SECRET}` });
  const cap = await post('/api/v1/captures', { title: `A capture ${SECRET}`, content_type: 'note', source: 'cli', selected_text: SECRET, url: `https://example.com/${SECRET}` });
  const key = await post('/api/v1/auth/api-keys', { name: `A key ${SECRET}` });
  await post(`/api/v1/nodes/${n1.id}/highlights`, { text: SECRET, note: `A note ${SECRET}` });
  a = { node: n1.id, node2: n2.id, para: para.id, capture: cap.id, key: key.id };
}, 60_000);
afterAll(() => t.close());

async function snapshot(tenantId: string): Promise<string> {
  const tables = ['nodes', 'highlights', 'links', 'para_items', 'node_para', 'captures', 'capture_events', 'api_keys', 'jobs'];
  const json = (v: unknown) => JSON.stringify(v, (_k, x) => (Buffer.isBuffer(x) ? x.toString('hex') : typeof x === 'bigint' ? String(x) : x));
  // Rows in a fixed order on either engine (no rowid on PostgreSQL): sorted by their own text.
  const out: string[][] = [];
  for (const tb of tables) out.push((await raw(t.s.db).prepare(`SELECT * FROM ${tb} WHERE tenant_id = ?`).all(tenantId)).map(json).sort());
  return json(out);
}

function idFor(path: string): string {
  if (path.includes('/api-keys/')) return a.key;
  if (path.includes('/para/')) return a.para;
  if (path.includes('/captures/')) return a.capture;
  return a.node;
}

const BODIES: Record<string, unknown> = {
  'PATCH /api/v1/nodes/{id}': { title: 'hijacked' },
  'PATCH /api/v1/nodes/{id}/links': { links: [] },
  'PATCH /api/v1/para/{id}': { label: 'hijacked' },
  'POST /api/v1/nodes/{id}/highlights': { text: 'hijacked' },
  'PATCH /api/v1/nodes/{id}/highlights/{highlight_id}': { note: 'hijacked' },
};

describe('cross-tenant sweep', () => {
  it("every route and method with another tenant's ids: 404, nothing leaked, nothing changed", async () => {
    const b = await t.tenant('intruder');
    const before = await snapshot(t.tenantId);
    const doc = await (await t.app.request('/api/v1/openapi.json')).json();
    const leaks: string[] = [];
    const not404: string[] = [];
    let withId = 0;
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops).map((m) => m.toUpperCase())) {
        const concrete = path.replace('{id}', idFor(path));
        const key = `${method} ${path}`;
        let body: unknown = BODIES[key];
        if (key === 'POST /api/v1/context') body = { focus_node_ids: [a.node, a.node2], query: SECRET };
        else if (body === undefined && method !== 'GET' && method !== 'DELETE' && (ops as Record<string, { requestBody?: unknown }>)[method.toLowerCase()]?.requestBody) body = {};
        let url = concrete;
        if (path === '/api/v1/links/suggestions') url += `?text=${SECRET}`;
        if (path === '/api/v1/captures/check') url += `?url=${encodeURIComponent(`https://example.com/${SECRET}`)}`;
        if (path === '/api/v1/nodes') url += method === 'GET' ? `?query=${SECRET}` : '';
        if (path.includes('/auth/') && !path.includes('api-keys')) continue; // sign-in flows name no tenant resource
        if (path === '/api/v1/captures/upload') continue; // multipart: no id to cross
        // Operator routes refuse every tenant credential with 403 (test/operators/admin-access.test.ts sweeps them).
        if (path.startsWith('/api/v1/admin/') || path === '/metrics') continue;
        const res = await t.req(method, url, body, b.auth);
        // The id the caller sent may be echoed back (instance, detail): that is its own input.
        const text = (await res.text()).split(idFor(path)).join('<sent id>');
        for (const v of [...Object.values(a), SECRET]) if (text.includes(v)) leaks.push(`${key} → ${res.status} leaks ${v}`);
        if (path.includes('{id}')) {
          withId++;
          // DELETE /para/{id} is 410 for every id by contract (deprecated): it reveals nothing.
          const expected = key === 'DELETE /api/v1/para/{id}' ? 410 : 404;
          if (res.status !== expected) not404.push(`${key} → ${res.status} ${text.slice(0, 120)}`);
        } else if (res.status >= 500) not404.push(`${key} → ${res.status}`);
      }
    }
    expect(withId).toBeGreaterThan(20);
    expect(leaks).toEqual([]);
    expect(not404).toEqual([]);
    expect(await snapshot(t.tenantId)).toBe(before);
  });
});
