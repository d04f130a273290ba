// CORS: browser extensions may call the API with an API key; ordinary web pages may not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const CHROME = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
const FIREFOX = 'moz-extension://0b6c4f0e-2f2d-4b8e-9a77-1d2c3b4a5f60';
const EVIL = 'https://evil.example';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

const preflight = (origin: string, method = 'POST', path = '/api/v1/captures') =>
  t.app.request(path, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'authorization,content-type' },
  });

describe('CORS for extension origins', () => {
  it.each([CHROME, FIREFOX])('answers a preflight from %s with the headers the extension needs', async (origin) => {
    const res = await preflight(origin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    const methods = res.headers.get('access-control-allow-methods')!.split(',');
    for (const m of ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS']) expect(methods).toContain(m);
    const headers = res.headers.get('access-control-allow-headers')!.toLowerCase().split(',');
    expect(headers).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  it('lets an extension create a capture and read the answer', async () => {
    const res = await t.app.request('/api/v1/captures', {
      method: 'POST',
      headers: { Origin: CHROME, Authorization: `ApiKey ${t.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'From the extension', url: 'https://example.com/a', content_type: 'article', source: 'browser-extension', raw_content: '<p>hi</p>' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe(CHROME);
  });

  it('lets an extension read error bodies too (401 with a wrong key, 404 on check)', async () => {
    const bad = await t.app.request('/api/v1/captures', { headers: { Origin: FIREFOX, Authorization: 'ApiKey nope.nope' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('access-control-allow-origin')).toBe(FIREFOX);
    const missing = await t.app.request('/api/v1/captures/check?url=' + encodeURIComponent('https://never.example/'), { headers: { Origin: CHROME, Authorization: `ApiKey ${t.key}` } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(CHROME);
  });

  it('answers /health for an extension (the options page checks it)', async () => {
    const res = await t.app.request('/health', { headers: { Origin: CHROME } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(CHROME);
  });
});

describe('CORS for ordinary web origins', () => {
  it.each([EVIL, 'http://127.0.0.1:7777', 'null', 'chrome-extension://evil.example/x', 'chrome-extension-evil://abc'])('refuses a preflight from %s', async (origin) => {
    const res = await preflight(origin);
    expect(res.status).not.toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    expect(res.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('gives a credentialed GET from a web origin no Access-Control-Allow-Origin', async () => {
    const res = await t.app.request('/api/v1/captures', { headers: { Origin: EVIL, Authorization: `ApiKey ${t.key}` } });
    expect(res.status).toBe(200); // the server answers; the browser hides it from the page
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('gives a write from a web origin no CORS headers either', async () => {
    const res = await t.app.request('/api/v1/captures', {
      method: 'POST',
      headers: { Origin: EVIL, Authorization: `ApiKey ${t.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'x', content_type: 'note', source: 'api', raw_content: 'x' }),
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
