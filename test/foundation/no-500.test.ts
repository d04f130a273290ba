// Walks every documented route and sends it what a careless or hostile client might:
// nothing may produce a 5xx, and every error must be problem+json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let nodeId: string;
beforeAll(async () => {
  t = await makeTestApp();
  nodeId = (await (await t.req('POST', '/api/v1/nodes', { title: 'fuzz target', content: 'body' })).json()).id;
});
afterAll(() => t.close());

const BODIES: unknown[] = [
  undefined,
  '{',
  'null',
  '[]',
  '"string"',
  '12',
  {},
  { title: 1, name: [], email: {}, token: null, refresh_token: 5, links: 'x', focus_node_ids: 'x', category: 7, label: {} },
  { links: [{ target_id: 1, type: [] }], tags: [null], para_item_ids: [{}], limit: -1, mode: 'x', query: 'y'.repeat(20_000) },
  { __proto__: { polluted: true }, constructor: { prototype: { x: 1 } } },
];
const IDS = ['does-not-exist', '%00', 'x'.repeat(300), "' OR 1=1 --"];
const QUERIES = ['', '?limit=abc', '?limit=-5', '?limit=1e10', '?page=0&per_page=1000', '?text=', '?url=not a url', '?query=%FF', '?status=zzz&category=zzz'];

function errorType(path: string): RegExp {
  if (path === '/mcp') return /^application\/(problem\+)?json/;
  if (path.startsWith('/oauth/authorize')) return /^text\/html/;
  if (path.startsWith('/oauth/')) return /^application\/json/;
  return /^application\/problem\+json/;
}

describe('no request can produce a 500', () => {
  it('holds for every documented route', async () => {
    const doc = await (await t.app.request('/api/v1/openapi.json')).json();
    let calls = 0;
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) {
        const ids = path.includes('{') ? [...IDS, nodeId] : [''];
        for (const id of ids) {
          const concrete = path.replace(/\{[^}]+\}/g, encodeURIComponent(id));
          for (const q of QUERIES) {
            for (const body of method === 'get' || method === 'delete' ? [undefined] : BODIES) {
              const res = await t.req(method.toUpperCase(), concrete + q, body);
              calls++;
              const ct = res.headers.get('content-type') ?? '';
              const label = `${method.toUpperCase()} ${concrete}${q} ${JSON.stringify(body)?.slice(0, 60)}`;
              expect(res.status, label).toBeLessThan(500);
              // /mcp answers malformed JSON-RPC with a JSON-RPC error (what MCP clients read); the
              // authorization server answers OAuth's JSON errors, and its pages error pages.
              if (res.status >= 400) expect(ct, label).toMatch(errorType(concrete));
              await res.arrayBuffer();
            }
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(100);
    // Still serving (the fuzz legitimately deleted the seeded node along the way).
    expect((await t.app.request('/health')).status).toBe(200);
    expect((await t.req('POST', '/api/v1/nodes', { title: 'after the storm' })).status).toBe(201);
  }, 300_000);
});
