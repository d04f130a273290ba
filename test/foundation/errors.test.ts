import { raw as rawSql } from '../helpers/raw.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => (t = await makeTestApp()));
afterEach(() => t.close());

const raw = (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
  t.app.request(path, { method, body: init.body, headers: { Authorization: `ApiKey ${t.key}`, ...init.headers } });

describe('problem+json for every error class', () => {
  it('400 malformed JSON', async () => {
    await expectProblem(await raw('POST', '/api/v1/nodes', { body: '{"title":', headers: { 'Content-Type': 'application/json' } }), 400, 'validation_failed');
  });

  it('415 for a JSON route sent another content type; 400 for no body or a non-object', async () => {
    await expectProblem(await raw('POST', '/api/v1/nodes', { body: 'title=x', headers: { 'Content-Type': 'text/plain' } }), 415, 'unsupported_media_type');
    await expectProblem(await raw('POST', '/api/v1/nodes'), 400, 'validation_failed');
    await expectProblem(await raw('POST', '/api/v1/nodes', { body: '[1,2]', headers: { 'Content-Type': 'application/json' } }), 400, 'validation_failed');
    await expectProblem(await raw('POST', '/api/v1/nodes', { body: 'null', headers: { 'Content-Type': 'application/json' } }), 400, 'validation_failed');
  });

  it('400 lists each field error with its path', async () => {
    const p = await expectProblem(await t.req('POST', '/api/v1/nodes', { title: '', status: 'x', bogus: 1 }), 400, 'validation_failed');
    expect(p.errors!.map((e) => e.path).sort()).toEqual(expect.arrayContaining(['status', 'title']));
  });

  it('401 without credentials', async () => {
    await expectProblem(await t.req('GET', '/api/v1/nodes', undefined, null), 401, 'unauthorized');
  });

  it('404 for an unknown route and an unknown id', async () => {
    await expectProblem(await t.req('GET', '/api/v1/no-such-thing'), 404, 'not_found');
    await expectProblem(await t.req('GET', '/api/v1/nodes/nod_missing'), 404, 'not_found');
  });

  it('405 with Allow for a known path and the wrong method', async () => {
    const res = await t.req('PUT', '/api/v1/nodes');
    await expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('413 with Connection: close for a JSON body over 1 MB', async () => {
    const res = await raw('POST', '/api/v1/nodes', { body: JSON.stringify({ title: 'x', content: 'a'.repeat(1_100_000) }), headers: { 'Content-Type': 'application/json' } });
    await expectProblem(res, 413, 'payload_too_large');
    expect(res.headers.get('connection')).toBe('close');
    expect(await rawSql(t.s.db).prepare('SELECT count(*) FROM nodes').pluck().get()).toBe(0);
  });

  it('hostile inputs never produce a 500', async () => {
    const paths = [
      '/api/v1/nodes?query=%E0%A4%A',
      '/api/v1/nodes?query=%00%FF',
      '/api/v1/nodes?page=1e309',
      '/api/v1/nodes?per_page=5.5',
      '/api/v1/nodes?query=a&query=b',
      `/api/v1/nodes/${'x'.repeat(5000)}`,
      '/api/v1/nodes/%ZZ',
      '/api/v1/nodes/..%2F..%2Fetc',
    ];
    for (const p of paths) {
      const res = await t.req('GET', p);
      expect(res.status, p).toBeLessThan(500);
      expect(res.status === 200 || res.headers.get('content-type')?.startsWith('application/problem+json'), p).toBe(true);
    }
    const bodies = ['{"title": "\\ud800"}', '{"title": 1e999}', `{"title": "x", "tags": ${'['.repeat(5000)}${']'.repeat(5000)}}`, '\u0000'];
    for (const b of bodies) {
      const res = await raw('POST', '/api/v1/nodes', { body: b, headers: { 'Content-Type': 'application/json' } });
      expect(res.status, b.slice(0, 30)).toBeLessThan(500);
    }
  });
});

describe('health and the API description', () => {
  it('GET /health with credentials reports model and queue (without: status and version only)', async () => {
    const res = await t.req('GET', '/health');
    expect(res.status).toBe(200);
    const h = await res.json();
    expect(h).toMatchObject({ status: 'ok', embedding: { state: 'ready', model: 'hash-64', dimension: 64 }, jobs: { queued: 0 } });
    expect(h.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(typeof h.uptime_s).toBe('number');
  });

  it('API responses, errors included, are never stored by caches', async () => {
    expect((await t.req('GET', '/api/v1/nodes')).headers.get('cache-control')).toBe('no-store');
    expect((await t.req('GET', '/api/v1/nodes/nod_missing')).headers.get('cache-control')).toBe('no-store');
    expect((await t.req('GET', '/api/v1/nodes', undefined, null)).headers.get('cache-control')).toBe('no-store');
  });

  it('counts queued jobs', async () => {
    await t.req('POST', '/api/v1/nodes', { title: 'x' });
    expect((await (await t.req('GET', '/health')).json()).jobs.queued).toBe(1);
  });

  it('serves an OpenAPI 3.1 document listing every route, and a browsable reference', async () => {
    const doc = await (await t.app.request('/api/v1/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, object>)) for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${path}`);
    const registered = t.app.routes
      .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/v1/') && !r.path.startsWith('/api/v1/docs') && r.path !== '/api/v1/openapi.json')
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(registered.length).toBeGreaterThan(5);
    for (const r of registered) expect(documented, r).toContain(r);
    const page = await t.app.request('/api/v1/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/api/v1/docs/init.js');
    expect(await (await t.app.request('/api/v1/docs/init.js')).text()).toContain('/api/v1/openapi.json');
    const js = await t.app.request('/api/v1/docs/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});
