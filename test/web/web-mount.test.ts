// The dashboard's static serving without a browser: what `/` and `/assets/*` answer.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { loadWebAssets, webMount } from '../../src/http/web.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  t = await makeTestApp();
  app = createApp(t.s, [webMount]); // dist/web is built by the global setup
});
afterAll(() => t.close());

describe('web mount', () => {
  it('serves the page at / and /index.html, and 405s other methods on /', async () => {
    for (const path of ['/', '/index.html']) {
      const res = await app.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await res.text()).toContain('<div id="app">');
    }
    expect((await app.request('/', { method: 'POST' })).status).toBe(405);
  });

  it('serves every hashed bundle named by the page, gzipped on request', async () => {
    const html = await (await app.request('/')).text();
    const names = [...html.matchAll(/\/assets\/([^"]+)/g)].map((m) => m[1]);
    expect(names.length).toBeGreaterThanOrEqual(2);
    for (const name of names) {
      const res = await app.request('/assets/' + name, { headers: { 'Accept-Encoding': 'gzip, br' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect(res.headers.get('content-encoding')).toBe('gzip');
    }
  });

  it('does not shadow the API: /api/v1 still needs auth and unknown assets are problem+json 404s', async () => {
    expect((await app.request('/api/v1/auth/api-keys')).status).toBe(401);
    const res = await app.request('/assets/../../package.json');
    expect(res.status).toBe(404);
    expect((await app.request('/assets/app-AAAAAAAA.js')).headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('loads nothing but hashed files, and reports a missing build', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rhizome-web-assets-'));
    expect(loadWebAssets(dir).index).toBeNull();
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(join(dir, 'app-ABCDEFGH.js'), 'console.log(1);'.repeat(200));
    writeFileSync(join(dir, 'secret.txt'), 'not served');
    const { index, assets } = loadWebAssets(dir);
    expect(index?.type).toMatch(/text\/html/);
    expect([...assets.keys()]).toEqual(['app-ABCDEFGH.js']);
    expect(assets.get('app-ABCDEFGH.js')!.gzip!.length).toBeLessThan(3000);
  });
});
