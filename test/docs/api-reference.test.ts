// docs/api.md is generated from the OpenAPI document the server serves, so it cannot drift:
// this test renders it again and fails when the committed file differs.
// `npm run docs:api` (RHIZOME_WRITE_API_DOCS=1) rewrites the file instead.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { renderApiReference } from './api-reference.js';

const FILE = 'docs/api.md';
let t: TestApp;
beforeAll(async () => (t = await makeTestApp()));
afterAll(() => t.close());

describe('docs/api.md', () => {
  it('is what the OpenAPI document renders to (run `npm run docs:api` after changing a route)', async () => {
    const doc = await (await t.req('GET', '/api/v1/openapi.json')).json();
    const text = renderApiReference(doc);
    if (process.env.RHIZOME_WRITE_API_DOCS === '1') writeFileSync(FILE, text);
    const committed = readFileSync(FILE, 'utf8');
    expect(committed === text, `${FILE} is stale: run \`npm run docs:api\` and commit it`).toBe(true);
    // Every operation is in it.
    for (const [path, item] of Object.entries(doc.paths as Record<string, object>)) {
      for (const method of Object.keys(item)) if (method !== 'parameters') expect(text).toContain(`### \`${method.toUpperCase()} ${path}\``);
    }
  });
});
