// Captures as cards, end to end: a real page with an Open Graph image and a favicon served
// from a loopback site, captured through the API by a real server (private fetches allowed
// for this test), then seen in headless Chromium: the card's picture, site, status and first
// lines; the capture ⇄ node links both ways; a failed fetch whose stage panel agrees with its
// timeline; provenance without raw ids or JSON; a way back from a missing capture.
import { createServer, type Server as HttpServer } from 'node:http';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eSuite, screenshot } from './harness.js';
import { axeSerious, docShots } from './kit.js';

/** A soft diagonal gradient, so the screenshots show a real picture. */
function gradientPng(w: number, h: number, from: [number, number, number], to: [number, number, number]): Buffer {
  const png = new PNG({ width: w, height: h });
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const t = (x / w + y / h) / 2;
      const i = (y * w + x) * 4;
      for (let c = 0; c < 3; c++) png.data[i + c] = Math.round(from[c] + (to[c] - from[c]) * t);
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

const OG = gradientPng(600, 315, [34, 120, 96], [214, 180, 90]);
const ICON = gradientPng(32, 32, [180, 60, 40], [250, 200, 80]);
const para = (s: string) => `<p>${s.repeat(8)}</p>`;
const article = (title: string, site: string, description: string, extraHead = '') => `<!doctype html><html lang="en"><head>
<title>${title}</title><meta property="og:site_name" content="${site}"><meta name="description" content="${description}">
<link rel="icon" href="/static/icon.png">${extraHead}</head><body><article><h1>${title}</h1>
${para('Worms pull fallen leaves underground, where microbes finish the job and the soil gains a crumbly structure that holds water. ')}
</article></body></html>`;

let site: HttpServer;
let base = '';
const PAGES: Record<string, string> = {
  '/worms': article('How worms build soil', 'Worm Farm Weekly', 'Worms turn leaf litter into rich, crumbly soil within a single season.', '<meta property="og:image" content="/static/worms.png">'),
  '/mulch': article('Mulch in dry summers', 'Garden Notes', 'A thick layer of straw keeps moisture in the ground through a heat wave.'),
};

// Private fetches are allowed for this file's server only (the loopback site stands in for the web).
beforeAll(async () => {
  site = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (PAGES[path]) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGES[path]);
    if (path === '/static/worms.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(OG);
    if (path === '/static/icon.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(ICON);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('gone');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  const a = site.address();
  base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  process.env.RHIZOME_ALLOW_PRIVATE_FETCH = '1';
});
const s = e2eSuite();
beforeAll(() => {
  delete process.env.RHIZOME_ALLOW_PRIVATE_FETCH;
});
afterAll(() => new Promise<void>((r) => { site.closeAllConnections(); site.close(() => r()); }));

interface Cap { id: string; status: string; node_id: string | null; title: string }

/**
 * A signed-in page whose context bypasses the dashboard's CSP, so the axe-core script can be
 * injected (the app's own code still runs under its normal headers).
 */
async function signedIn(): Promise<Page> {
  const ctx = await s.browser.browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, baseURL: s.server.url, bypassCSP: true });
  await ctx.addInitScript((k) => localStorage.getItem('rhizome.session') ?? localStorage.setItem('rhizome.session', JSON.stringify({ kind: 'apikey', key: k })), s.server.apiKey);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => {
    throw new Error(`uncaught error in the page: ${e.message}`);
  });
  return page;
}

async function capture(body: Record<string, unknown>): Promise<string> {
  const res = await s.api<{ id: string }>('POST', '/captures', { source: 'api', ...body });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function settled(id: string): Promise<Cap> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const c = (await s.api<Cap>('GET', `/captures/${id}`)).body;
    if (c.status === 'completed' || c.status === 'failed') return c;
    if (Date.now() > deadline) throw new Error(`capture ${id} is still ${c.status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const ids: Record<string, string> = {};
let worms: Cap;

describe('captures as cards', () => {
  beforeAll(async () => {
    await s.api('POST', '/nodes', { title: 'Soil food web', content: 'Fungi, bacteria and worms feed each other and the plants; compost and leaf litter keep them going.' });
    ids.worms = await capture({ title: 'How worms build soil', content_type: 'article', url: `${base}/worms` });
    ids.mulch = await capture({ title: 'Mulch in dry summers', content_type: 'article', url: `${base}/mulch` });
    ids.note = await capture({ title: 'Seed swap on Saturday', content_type: 'note', selected_text: 'Bring the saved bean and squash seeds to the library seed swap, 10am, and label every envelope with the year.' });
    ids.failed = await capture({ title: 'A page that is gone', content_type: 'article', url: `${base}/gone` });
    worms = await settled(ids.worms);
    for (const k of ['mulch', 'note', 'failed']) await settled(ids[k]);
  }, 200_000);

  it('shows each capture as a card: the kept image, site name, status and first lines', async () => {
    expect(worms.status).toBe('completed');
    const page = await signedIn();
    await page.goto('/#/captures');
    const card = page.locator('.cc-card', { hasText: 'How worms build soil' });
    await card.locator('img.cc-image').waitFor({ timeout: 20_000 });
    await expect.poll(() => card.locator('img.cc-image').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(600);
    expect(await card.locator('img.cc-image').getAttribute('src')).toMatch(/^blob:/);
    expect(await card.locator('.cc-site-name').innerText()).toBe('Worm Farm Weekly');
    await card.locator('.badge-status-completed').waitFor();
    expect(await card.locator('.cc-lines').innerText()).toContain('Worms turn leaf litter into rich');
    await expect.poll(() => card.locator('img.cc-favicon').evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(32);
    // No Open Graph image: the favicon stands in; a note gets the neutral placeholder.
    const mulch = page.locator('.cc-card', { hasText: 'Mulch in dry summers' });
    await expect.poll(() => mulch.locator('img.cc-thumb-icon').evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(32);
    await page.locator('.cc-card', { hasText: 'Seed swap on Saturday' }).locator('.cc-glyph').waitFor();
    await page.locator('.cc-card', { hasText: 'A page that is gone' }).locator('.badge-status-failed').waitFor();
    expect(await axeSerious(page)).toEqual([]);
    const shots = await docShots(page, 'captures', async (p) => {
      await p.locator('.cc-card img.cc-image').first().waitFor();
      // The list under the page header (the form above is another page's screenshot).
      await p.evaluate(() => window.scrollTo(0, document.querySelector('.cc-grid')!.closest('.card')!.getBoundingClientRect().top + window.scrollY - 64));
      await p.waitForTimeout(400); // colour transitions after the scheme switch
    });
    expect(shots.violations).toEqual({});
    await page.context().close();
  }, 120_000);

  it('links a capture to its node and the node back to its capture, by clicking', async () => {
    const page = await signedIn();
    await page.goto('/#/captures');
    const card = page.locator('.cc-card', { hasText: 'How worms build soil' });
    await card.getByRole('link', { name: 'How worms build soil', exact: true }).click();
    await page.getByRole('heading', { name: 'How worms build soil', level: 1 }).waitFor();
    await page.locator('.cp-hero').getByRole('link', { name: 'How worms build soil' }).click();
    await page.waitForURL(new RegExp(`#/nodes/${worms.node_id}$`));
    await page.locator('.node-head').getByRole('heading', { name: 'How worms build soil', level: 1 }).waitFor();
    const back = page.locator('.node-head .node-from-capture');
    await back.waitFor();
    expect((await back.innerText()).replace(/\s+/g, ' ')).toContain('From capture: Worm Farm Weekly — How worms build soil');
    await back.getByRole('link').click();
    await page.waitForURL(new RegExp(`#/captures/${ids.worms}$`));
    await page.locator('.stages li[data-stage="link"]').waitFor();
    await page.context().close();
  }, 60_000);

  it('shows provenance as names and links: no raw ids, no JSON', async () => {
    const page = await signedIn();
    await page.goto(`/#/captures/${ids.worms}`);
    await page.locator('.stages li[data-stage="link"][data-state="done"]').waitFor();
    await page.locator('.timeline li').first().waitFor();
    // Node references resolve to titles (the nearest node found while embedding, when the model ran).
    await page.waitForFunction(() => ![...document.querySelectorAll('.stages a')].some((a) => a.textContent === 'a node'));
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/\b(nod|cap|par|ten|usr|key)_[0-9a-z]{20,}\b/);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
    expect(text).not.toMatch(/[{[]\s*"|"\s*:\s*["{[\d]/);
    expect(text).toContain('Fetch');
    expect(text).toContain('HTTP status');
    for (const a of await page.locator('.stages a[href^="#/nodes/"]').all()) expect((await a.innerText()).length).toBeGreaterThan(2);
    expect(await axeSerious(page)).toEqual([]);
    const shots = await docShots(page, 'capture', async (p) => {
      await p.locator('.stages li[data-stage="fetch"]').waitFor();
      await p.evaluate(() => window.scrollTo(0, 0));
      await p.waitForTimeout(400); // colour transitions after the scheme switch
    });
    expect(shots.violations).toEqual({});
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'capture-provenance');
    await page.context().close();
  }, 120_000);

  it('a failed fetch: the stage panel says what the timeline says', async () => {
    const page = await signedIn();
    await page.goto(`/#/captures/${ids.failed}`);
    await page.getByText('Processing failed').waitFor();
    const fetch = page.locator('.stages li[data-stage="fetch"]');
    await fetch.waitFor();
    expect(await fetch.getAttribute('data-state')).toBe('failed');
    expect(await fetch.innerText()).toContain('HTTP 404');
    expect(await page.locator('.stages li[data-state="not run"]').count()).toBe(6);
    expect(await page.getByText('No stage has run').count()).toBe(0);
    const failedEvent = page.locator('.timeline li', { hasText: /^failed/i });
    await failedEvent.waitFor();
    expect(await failedEvent.innerText()).toContain('HTTP 404');
    expect(await failedEvent.innerText()).toContain('Fetch');
    expect(await axeSerious(page)).toEqual([]);
    await screenshot(page, 'capture-failed');
    await page.context().close();
  }, 60_000);

  it('a capture that does not exist offers a way back to the list', async () => {
    const page = await signedIn();
    await page.goto('/#/captures/cap_01jzzzzzzzzzzzzzzzzzzzzzzz');
    await page.getByRole('heading', { name: 'This capture does not exist' }).waitFor();
    await page.getByRole('link', { name: 'Back to all captures' }).click();
    await page.waitForURL(/#\/captures$/);
    await page.getByRole('heading', { name: 'Captures', level: 1 }).waitFor();
    await page.context().close();
  }, 60_000);
});

