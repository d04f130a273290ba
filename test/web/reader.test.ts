// The reader view in real Chromium: a node's article with its highlights drawn in; selecting
// words and choosing Highlight (or Highlight with note) makes a highlight the API then has;
// the side panel lists them; the reading position survives a reload; it works at phone width.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { e2eSuite, screenshot } from './harness.js';

// One test captures a page from a loopback site (as an operator would allow a LAN).
process.env.RHIZOME_ALLOW_PRIVATE_FETCH = '1';
const s = e2eSuite();

const PARAS = [
  'Hedgerows are the oldest managed habitats in the lowland landscape, some of them older than the parish churches beside them.',
  'A good hedge is thick at the base, where small birds nest out of reach of cats and crows.',
  'Cutting every other year, late in the winter, leaves the berries for thrushes and the flowers for the first bees.',
  'Laying a hedge, the old craft of half-cutting stems and bending them down, thickens it again from the bottom.',
];
const BODY = ['# Hedgerows', ...PARAS, ...Array.from({ length: 14 }, (_, i) => `Further notes, part ${i + 1}: ${PARAS[i % PARAS.length]}`)].join('\n\n');

async function makeNode(title: string) {
  const n = await s.api<{ id: string }>('POST', '/nodes', { title, content: BODY });
  expect(n.status).toBe(201);
  const h = await s.api('POST', `/nodes/${n.body.id}/highlights`, { text: 'small birds nest out of reach', note: 'why the base matters', color: 'green' });
  expect(h.status).toBe(201);
  return n.body.id;
}

describe('reader view', () => {
  it('draws highlights, highlights a selection (with and without a note), lists them and keeps the reading position', async () => {
    const id = await makeNode('Hedgerows');
    const page = await s.signedInPage();
    await page.goto(`/#/nodes/${id}`);
    await page.getByRole('link', { name: /Read · 1 highlight/ }).click();
    const mark = page.locator('mark[data-highlight]', { hasText: 'small birds nest out of reach' });
    await mark.waitFor();
    expect(await mark.getAttribute('class')).toContain('hl-green');
    const panel = page.getByRole('complementary', { name: 'Highlights' });
    await panel.getByText('why the base matters').waitFor();

    // Select a sentence the way a reader does, then Highlight.
    await page.locator('.reader-text p', { hasText: 'Cutting every other year' }).first().selectText();
    await page.getByRole('toolbar', { name: 'Highlight the selection' }).getByRole('radio', { name: 'blue' }).click();
    await page.getByRole('button', { name: 'Highlight', exact: true }).click();
    await page.locator('mark.hl-blue', { hasText: 'Cutting every other year' }).first().waitFor();
    // The list shows it too: the page is done re-rendering before the next selection is made.
    await expect.poll(() => panel.getByRole('listitem').count()).toBe(2);

    // With a note.
    await page.locator('.reader-text p', { hasText: 'Laying a hedge' }).first().selectText();
    await page.getByRole('button', { name: 'Highlight with note' }).click();
    await page.getByPlaceholder('Your note').fill('try this in March');
    await page.getByRole('button', { name: 'Save' }).click();
    await panel.getByText('try this in March').waitFor();

    const list = (await s.api<{ data: Array<{ text: string; note: string | null; color: string; orphaned: boolean }> }>('GET', `/nodes/${id}/highlights`)).body.data;
    expect(list.map((h) => [h.text, h.note, h.color, h.orphaned])).toEqual([
      ['small birds nest out of reach', 'why the base matters', 'green', false],
      [PARAS[2], null, 'blue', false],
      [PARAS[3], 'try this in March', 'blue', false],
    ]);
    expect(await panel.getByRole('listitem').count()).toBe(3);
    await screenshot(page, 'reader-desktop');

    // Reading position: scroll down, come back later, and be where you were.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight * 0.6));
    const y = await page.evaluate(() => window.scrollY);
    expect(y).toBeGreaterThan(300);
    await page.waitForTimeout(400);
    await page.reload();
    await page.locator('mark[data-highlight]').first().waitFor();
    await page.waitForFunction((want) => Math.abs(window.scrollY - want) < 80, y, { timeout: 5000 });

    // A link to one highlight (where a search hit on it leads) scrolls to it and marks it.
    const far = await s.api<{ id: string }>('POST', `/nodes/${id}/highlights`, { text: 'Further notes, part 13' });
    await page.goto(`/#/nodes/${id}/read?highlight=${far.body.id}`);
    await page.reload();
    const target = page.locator(`mark[data-highlight="${far.body.id}"]`);
    await target.waitFor();
    await page.waitForFunction((hid) => {
      const r = document.querySelector(`mark[data-highlight="${hid}"]`)!.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }, far.body.id, { timeout: 5000 });
    await page.context().close();
  }, 120_000);

  it('works on a phone: the panel follows the article and the highlight bar sits at the bottom', async () => {
    const id = await makeNode('Hedgerows on a phone');
    const page = await s.signedInPage({ width: 390, height: 844 });
    await page.goto(`/#/nodes/${id}/read`);
    await page.locator('mark[data-highlight]').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.locator('.reader-text p', { hasText: 'A good hedge is thick' }).first().selectText();
    const bar = page.getByRole('toolbar', { name: 'Highlight the selection' });
    await bar.waitFor();
    const box = (await bar.boundingBox())!;
    expect(box.y + box.height).toBeGreaterThan(844 - 80);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'reader-phone-selecting');
    await page.getByRole('button', { name: 'Highlight', exact: true }).click();
    await page.locator('mark.hl-yellow', { hasText: 'A good hedge is thick' }).first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'reader-phone');
    expect((await s.api<{ data: unknown[] }>('GET', `/nodes/${id}/highlights`)).body.data).toHaveLength(2);
    await page.context().close();
  }, 120_000);

  it('shows the archived copy in a sandboxed frame, and says when the original is gone', async () => {
    let alive = true;
    const site = createServer((_req, res) => {
      if (!alive) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>Lost page</title><style>h1 { color: rgb(120, 20, 20); }</style></head>
        <body><article><h1>The lost essay on coppicing</h1><p>${'Coppiced hazel regrows from the stool for centuries, giving poles every seven years. '.repeat(8)}</p></article><script>document.body.dataset.ran = 'yes'</script></body></html>`);
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
    const a = site.address();
    const url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/essay`;
    try {
      const cap = await s.api<{ id: string }>('POST', '/captures', { title: 'Lost page', content_type: 'article', url, source: 'api' });
      let node = '';
      for (let i = 0; i < 200 && !node; i++) {
        const c = await s.api<{ node_id: string | null; status: string }>('GET', `/captures/${cap.body.id}`);
        const snap = await fetch(`${s.server.url}/api/v1/captures/${cap.body.id}/snapshot`, { headers: { Authorization: `ApiKey ${s.server.apiKey}` } });
        if (c.body.status === 'completed' && snap.status === 200) node = c.body.node_id!;
        else await new Promise((r) => setTimeout(r, 300));
      }
      expect(node).not.toBe('');
      alive = false;
      const checked = await s.api<{ gone: Array<{ capture_id: string }> }>('POST', '/captures/check-links');
      expect(checked.body.gone.map((g) => g.capture_id)).toEqual([cap.body.id]);

      // Signed in by hand: the harness's sign-in init script would also run inside the sandboxed frame.
      const ctx = await s.browser.newContext({ width: 390, height: 844, baseUrl: s.server.url });
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto('/');
      await page.evaluate((k) => localStorage.setItem('rhizome.session', JSON.stringify({ kind: 'apikey', key: k })), s.server.apiKey);
      await page.goto(`/#/nodes/${node}/read`);
      await page.reload(); // the app reads the session at start
      await page.getByText('Original gone').waitFor();
      await page.getByRole('button', { name: 'Show the archived copy' }).click();
      const frame = page.frameLocator('iframe[title="Archived copy"]');
      await frame.getByRole('heading', { name: 'The lost essay on coppicing' }).waitFor();
      expect(await frame.locator('h1').evaluate((h) => getComputedStyle(h).color)).toBe('rgb(120, 20, 20)');
      expect(await frame.locator('body').getAttribute('data-ran')).toBeNull(); // its script was removed, and could not run anyway
      await screenshot(page, 'reader-archived-copy-phone');
      expect(errors).toEqual([]);
      await ctx.close();
    } finally {
      site.close();
    }
  }, 120_000);
});
