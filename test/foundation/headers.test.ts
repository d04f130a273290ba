// Security headers on API responses, errors, the API reference and the dashboard; /health
// says nothing about tenants to a caller without credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webMount } from '../../src/http/web.js';
import { createApp } from '../../src/http/app.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

function expectSecure(res: Response, where: string) {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp, where).toContain("frame-ancestors 'none'");
  expect(csp, where).not.toContain('unsafe-eval');
  expect(csp, where).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(res.headers.get('x-content-type-options'), where).toBe('nosniff');
  expect(res.headers.get('referrer-policy'), where).toBe('no-referrer');
  expect(res.headers.get('x-frame-options'), where).toBe('DENY');
  return csp;
}

describe('security headers', () => {
  it('API responses and problem+json errors allow nothing to load or frame them', async () => {
    for (const [method, path, auth] of [['GET', '/api/v1/nodes', undefined], ['GET', '/api/v1/nodes', null], ['GET', '/api/v1/nope', undefined], ['DELETE', '/health', null], ['GET', '/health', null], ['GET', '/api/v1/openapi.json', null]] as const) {
      const res = await t.req(method, path, undefined, auth);
      const csp = expectSecure(res, `${method} ${path} → ${res.status}`);
      expect(csp).toContain("default-src 'none'");
    }
  });

  it('the API reference page loads only its own scripts (no inline script)', async () => {
    const page = await t.req('GET', '/api/v1/docs', undefined, null);
    expect(page.status).toBe(200);
    const csp = expectSecure(page, 'docs');
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    const html = await page.text();
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    const init = await t.req('GET', '/api/v1/docs/init.js', undefined, null);
    expect(await init.text()).toContain('SwaggerUIBundle');
  });

  it('the dashboard carries a CSP too', async () => {
    const app = createApp(t.s, [webMount]);
    const res = await app.request('/');
    const csp = expectSecure(res, 'dashboard');
    expect(csp).toMatch(/script-src 'self'(;|$)/);
  });
});

describe('/health', () => {
  it('without credentials: status and version only', async () => {
    const res = await t.req('GET', '/health', undefined, null);
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['status', 'uptime_s', 'version']);
  });

  it("with credentials: model state and the caller's own queue depth, not other tenants'", async () => {
    const other = await t.tenant('health-other');
    for (let i = 0; i < 3; i++) await t.req('POST', '/api/v1/nodes', { title: `other ${i}`, content: 'x' }, other.auth);
    const mine = await (await t.req('GET', '/health')).json();
    const theirs = await (await t.req('GET', '/health', undefined, other.auth)).json();
    expect(mine.embedding.state).toBeDefined();
    expect(theirs.jobs.queued).toBeGreaterThan(0);
    expect(mine.jobs.queued).toBe(await t.s.queue.depthOf(t.tenantId));
    expect(mine.jobs.queued).toBeLessThan(await t.s.queue.depth()); // not the all-tenant count
    expect(theirs.jobs.queued).toBe(await t.s.queue.depthOf(other.tenantId));
  });

  it('bad credentials are a 401, not a quiet downgrade', async () => {
    const res = await t.req('GET', '/health', undefined, 'ApiKey nope.nope');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});
