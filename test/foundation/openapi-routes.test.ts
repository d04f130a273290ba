// The OpenAPI document keeps every route: each method and path the app serves is in the
// document (and the document names no route the app lacks); every operation has an operationId.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => (t = await makeTestApp()));
afterAll(() => t.close());

const toOpenApi = (path: string) => path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, '{$1}');
/** Served, but not API operations: the dashboard, GET/DELETE /mcp (405 by design). */
// Not operations: /mcp's GET/DELETE (405 by design) and the API reference page's own script.
const NOT_OPERATIONS = [/^(GET|DELETE) \/mcp$/, /^GET \/api\/v1\/docs\/init\.js$/];

describe('OpenAPI document', () => {
  it('lists every route the app serves, and only those, each with an operationId', async () => {
    const doc = await (await t.req('GET', '/api/v1/openapi.json')).json();
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { operationId?: string }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        documented.add(`${method.toUpperCase()} ${path}`);
        expect(op.operationId, `${method} ${path}`).toEqual(expect.any(String));
      }
    }
    const served = new Set(
      t.app.routes
        .filter((r) => r.method !== 'ALL' && !r.path.endsWith('*'))
        .map((r) => `${r.method} ${toOpenApi(r.path)}`)
        .filter((k) => !NOT_OPERATIONS.some((re) => re.test(k))),
    );
    expect([...served].filter((k) => !documented.has(k)).sort()).toEqual([]);
    expect([...documented].filter((k) => !served.has(k)).sort()).toEqual([]);
    expect(documented.size).toBeGreaterThan(40);
  });
});
