// The archived copy in real Chromium: a page captured from a local site is opened from
// GET /captures/{id}/snapshot with every other request blocked and recorded. It renders
// (its inlined styles applied, its inlined image drawn) and asks the network for nothing.
import { createServer, type Server as HttpServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '../fixtures/generate.js';
import { e2eSuite, screenshot } from './harness.js';

// The page lives on loopback: the server may fetch it (as an operator would allow a LAN).
process.env.RHIZOME_ALLOW_PRIVATE_FETCH = '1';
const s = e2eSuite();

let site: HttpServer;
let base = '';
const hits: string[] = [];
beforeAll(async () => {
  const png = makePng(120, 80);
  site = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/article') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>Archived article</title>
        <link rel="stylesheet" href="/style.css"><script src="/tracker.js"></script></head>
        <body><h1>Hedgerows and their birds</h1><p>${'Hedgerows shelter birds through the winter, and their berries feed them when little else does. '.repeat(6)}</p>
        <img src="/hedge.png" alt="hedge" width="120" height="80"><img src="https://example.com/remote.png" alt="remote"></body></html>`);
    } else if (req.url === '/style.css') res.writeHead(200, { 'content-type': 'text/css' }).end('h1 { color: rgb(10, 120, 40); font-family: serif; } body { background: url(/hedge.png) no-repeat right top; }');
    else if (req.url === '/hedge.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  const a = site.address();
  base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(() => new Promise<void>((r) => site.close(() => r())));

describe('archived copy in the browser', () => {
  it('renders from the snapshot alone, with the network blocked, making no request', async () => {
    const cap = await s.api<{ id: string }>('POST', '/captures', { title: 'Archived article', content_type: 'article', url: `${base}/article`, source: 'api' });
    expect(cap.status).toBe(201);
    const snapshotUrl = `${s.server.url}/api/v1/captures/${cap.body.id}/snapshot`;
    for (let i = 0; ; i++) {
      const res = await fetch(snapshotUrl, { headers: { Authorization: `ApiKey ${s.server.apiKey}` } });
      if (res.status === 200) break;
      if (i > 200) throw new Error(`no archived copy after 60 s (${res.status})`);
      await new Promise((r) => setTimeout(r, 300));
    }
    const siteHitsBefore = hits.length;

    const ctx = await s.browser.browser.newContext({ viewport: { width: 900, height: 700 }, extraHTTPHeaders: { Authorization: `ApiKey ${s.server.apiKey}` } });
    const requests: string[] = [];
    await ctx.route('**/*', (route) => {
      const url = route.request().url();
      requests.push(url);
      return url === snapshotUrl ? route.continue() : route.abort('blockedbyclient');
    });
    const page = await ctx.newPage();
    const violations: string[] = [];
    page.on('console', (m) => violations.push(m.text()));
    await page.goto(snapshotUrl);
    await page.getByRole('heading', { name: 'Hedgerows and their birds' }).waitFor();
    expect(await page.locator('h1').evaluate((h) => getComputedStyle(h).color)).toBe('rgb(10, 120, 40)');
    expect(await page.locator('img[alt="hedge"]').evaluate((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth)).toBe(120);
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    await page.waitForTimeout(300);
    expect(requests).toEqual([snapshotUrl]);
    expect(hits.length).toBe(siteHitsBefore); // the original site was not asked for anything
    expect(hits).not.toContain('/tracker.js');
    await screenshot(page, 'archive-snapshot');
    const phone = await ctx.newPage();
    await phone.setViewportSize({ width: 390, height: 800 });
    await phone.goto(snapshotUrl);
    await screenshot(phone, 'archive-snapshot-phone');
    expect(requests.filter((u) => u !== snapshotUrl)).toEqual([]);
    await ctx.close();
  }, 120_000);
});
