// The bookmarklet end to end: generated on the dashboard's Settings page, run on a page
// served from another origin, it opens Rhizome's own page in a popup window that saves the
// capture with the dashboard's session. The visited page never sees the API key.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { e2eSuite, ROOT, screenshot } from '../web/harness.js';

const s = e2eSuite();

// The visited page records everything that reaches it: what window.open returned,
// messages posted to it, and its storage.
const PAGE = `<!doctype html><html><head><title>Seed banks under threat</title></head><body>
<script>
  window.__opened = 'not called'; window.__messages = [];
  const open = window.open.bind(window);
  window.open = (...a) => { const w = open(...a); window.__opened = w === null ? null : 'a window handle'; return w; };
  window.addEventListener('message', (e) => window.__messages.push(String(e.origin) + ' ' + JSON.stringify(e.data)));
</script>
<article><h1>Seed banks under threat</h1>
<p id="quote">Svalbard keeps more than a million seed samples frozen inside a mountain.</p>
<p>Regional seed banks hold local varieties that the big vaults miss.</p></article></body></html>`;

let pages: Server;
let pageOrigin: string;
const seenHeaders: IncomingHttpHeaders[] = [];
const seenUrls: string[] = [];

beforeAll(async () => {
  pages = createServer((req, res) => {
    seenHeaders.push(req.headers);
    seenUrls.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
  pageOrigin = `http://localhost:${(pages.address() as AddressInfo).port}`;
});
afterAll(() => pages?.close());

async function signIn(baseUrl: string) {
  const ctx = await s.browser.newContext({ baseUrl });
  const page = await ctx.newPage();
  await page.goto('/');
  await page.getByRole('textbox', { name: 'API key' }).fill(s.server.apiKey);
  await page.getByRole('button', { name: 'Sign in with key' }).click();
  await page.getByLabel('Search nodes').waitFor();
  return { ctx, page };
}

describe('bookmarklet', () => {
  it('saves the visited page and selection from a popup window without exposing the key to the page', async () => {
    const { ctx, page } = await signIn(s.server.url);
    await page.goto('/#/settings');
    await page.getByRole('heading', { name: 'Bookmarklet' }).waitFor();
    await screenshot(page, 'settings-bookmarklet');
    const href = await page.inputValue('#bookmarklet-code');
    expect(href.startsWith('javascript:')).toBe(true);
    expect(href).toContain(JSON.stringify(s.server.url));
    expect(href).not.toContain(s.server.apiKey.split('.')[1]);
    expect(await page.getByRole('link', { name: /bookmarklet/ }).getAttribute('href')).toBe(href);

    const visited = await ctx.newPage();
    await visited.goto(pageOrigin + '/article.html');
    await visited.evaluate((code) => {
      const r = document.createRange();
      r.selectNodeContents(document.getElementById('quote')!);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(r);
      // What clicking the bookmark does: run the javascript: URL in the visited page.
      const a = Object.assign(document.createElement('a'), { id: 'bm', href: code, textContent: 'bookmark' });
      document.body.append(a);
    }, href);
    const [popup] = await Promise.all([ctx.waitForEvent('page'), visited.click('#bm')]);
    await popup.getByRole('heading', { name: 'Save to Rhizome' }).waitFor();
    await popup.setViewportSize({ width: 480, height: 680 });
    expect(await popup.inputValue('#bm-title')).toBe('Seed banks under threat');
    expect(await popup.inputValue('#bm-type')).toBe('article');
    await popup.getByText('Svalbard keeps more than a million seed samples').waitFor();
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    await popup.fill('#bm-why', 'Background for the seed-library talk.');
    await popup.fill('#bm-tags', 'seeds, biodiversity');
    await popup.getByRole('button', { name: 'Save', exact: true }).click();
    await popup.locator('.bm-done .badge-status-completed').waitFor({ timeout: 90_000 });
    await popup.getByRole('button', { name: 'Close window' }).waitFor();
    const file = await screenshot(popup, 'bookmarklet');
    if (process.env.RHIZOME_DOCS_SCREENSHOTS) copyFileSync(file, join(ROOT, 'docs/bookmarklet-popup.png'));

    const list = await s.api<{ data: { id: string; url: string; source: string; selected_text: string; why: string; node_id: string }[] }>('GET', '/captures?per_page=10');
    const cap = list.body.data.find((c) => c.url === pageOrigin + '/article.html')!;
    expect(cap).toMatchObject({ source: 'browser-extension', why: 'Background for the seed-library talk.' });
    expect(cap.selected_text).toContain('Svalbard keeps more than a million seed samples');
    expect(await popup.getByRole('link', { name: 'Open node' }).getAttribute('href')).toBe(`#/nodes/${cap.node_id}`);
    await expect.poll(async () => (await s.api<{ tags: string[] }>('GET', `/nodes/${cap.node_id}`)).body.tags, { timeout: 10_000 }).toEqual(
      expect.arrayContaining(['seeds', 'biodiversity']),
    );

    // Nothing from Rhizome reached the visited page or its server.
    const secret = s.server.apiKey.split('.')[1];
    const seen = await visited.evaluate(() => ({
      opened: (window as any).__opened,
      messages: (window as any).__messages,
      storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
      cookie: document.cookie,
      html: document.documentElement.outerHTML,
      globals: Object.keys(window).join(','),
    }));
    expect(seen.opened).toBeNull(); // noopener: the page gets no handle on Rhizome's window
    expect(seen.messages).toEqual([]);
    expect(JSON.stringify(seen)).not.toContain(secret);
    expect(JSON.stringify(seen)).not.toContain(s.server.apiKey);
    expect(seen.storage).toBe('{}{}');
    expect(JSON.stringify({ seenHeaders, seenUrls })).not.toContain(secret);
    await ctx.close();
  }, 150_000);

  it('asks to sign in first when the browser has no session, then returns to the capture', async () => {
    const ctx = await s.browser.newContext({ baseUrl: s.server.url });
    const popup = await ctx.newPage();
    const before = (await s.api<{ total: number }>('GET', '/captures?per_page=1')).body.total;
    const target = 'https://example.org/essay?id=7';
    await popup.goto('/#/bookmarklet?' + new URLSearchParams({ url: target, title: 'An essay', selection: '' }));
    await popup.getByRole('heading', { name: 'Sign in to Rhizome' }).waitFor();
    await popup.getByRole('textbox', { name: 'API key' }).fill(s.server.apiKey);
    await popup.getByRole('button', { name: 'Sign in with key' }).click();
    await popup.getByRole('heading', { name: 'Save to Rhizome' }).waitFor();
    expect(await popup.inputValue('#bm-title')).toBe('An essay');
    await popup.getByText(target).waitFor();
    // Opening the page saves nothing by itself: saving takes the user's click.
    await new Promise((r) => setTimeout(r, 500));
    expect((await s.api<{ total: number }>('GET', '/captures?per_page=1')).body.total).toBe(before);
    await ctx.close();
  }, 60_000);

  it('refuses to save something that is not a web page', async () => {
    const ctx = await s.browser.newContext({ baseUrl: s.server.url, apiKey: s.server.apiKey });
    const popup = await ctx.newPage();
    await popup.goto('/#/bookmarklet?url=' + encodeURIComponent('file:///etc/passwd'));
    await popup.getByText('Nothing to save').waitFor();
    expect(await popup.locator('#bm-title').count()).toBe(0);
    await ctx.close();
  }, 60_000);
});
