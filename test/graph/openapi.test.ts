import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

it('documents every graph endpoint in the OpenAPI document', async () => {
  const res = await t.req('GET', '/api/v1/openapi.json');
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
  expect(Object.keys(doc.paths['/api/v1/nodes/{id}/links'] ?? {})).toEqual(expect.arrayContaining(['patch', 'get']));
  expect(doc.paths['/api/v1/nodes/{id}/related']?.get).toBeDefined();
  expect(doc.paths['/api/v1/links/suggestions']?.get).toBeDefined();
  expect(doc.paths['/api/v1/context']?.post).toBeDefined();
  expect(doc.paths['/api/v1/graph-health']?.get).toBeDefined();
});

it('requires authentication on every graph endpoint', async () => {
  for (const [method, path] of [
    ['PATCH', '/api/v1/nodes/nod_x/links'], ['GET', '/api/v1/nodes/nod_x/related'], ['GET', '/api/v1/links/suggestions?text=x'],
    ['POST', '/api/v1/context'], ['GET', '/api/v1/graph-health'],
  ]) {
    expect((await t.req(method, path, method === 'GET' ? undefined : {}, null)).status, path).toBe(401);
  }
});
