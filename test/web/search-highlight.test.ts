// In real Chromium: a search whose words are in one of your highlights' notes shows that
// highlight under the result, and opening the result (click or Enter) opens the reader at it.
import { describe, expect, it } from 'vitest';
import { e2eSuite, screenshot } from './harness.js';

const s = e2eSuite();

const PARAS = Array.from({ length: 18 }, (_, i) => `Paragraph ${i + 1} of the orchard diary: the trees, the weather, the grass between the rows and what the sheep made of it.`);

async function setup() {
  const n = await s.api<{ id: string }>('POST', '/nodes', { title: 'Orchard diary', content: PARAS.join('\n\n') });
  expect(n.status).toBe(201);
  const h = await s.api<{ id: string }>('POST', `/nodes/${n.body.id}/highlights`, { text: 'Paragraph 16 of the orchard diary', note: 'Codling moth traps go up in May', color: 'green' });
  expect(h.status).toBe(201);
  return { id: n.body.id, hl: h.body.id };
}

const inView = (hid: string) => {
  const r = document.querySelector(`mark[data-highlight="${hid}"]`)?.getBoundingClientRect();
  return !!r && r.top >= 0 && r.bottom <= window.innerHeight;
};

describe('a search hit on a highlight', () => {
  it('shows the highlight with its note and opens the reader at it', async () => {
    const { id, hl } = await setup();
    const page = await s.signedInPage();
    await page.goto('/#/?q=codling');
    const result = page.locator('.result', { hasText: 'Orchard diary' });
    await result.locator('.result-annotation-note mark', { hasText: 'Codling' }).waitFor();
    await expect.poll(() => result.locator('.result-annotation-text').textContent()).toBe('Paragraph 16 of the orchard diary');
    await screenshot(page, 'search-highlight-desktop');
    await result.getByRole('link').click();
    await page.waitForURL(new RegExp(`#/nodes/${id}/read\\?highlight=${hl}$`));
    await page.waitForFunction(inView, hl, { timeout: 5000 });

    // Enter on the active result goes to the same place.
    await page.goto('/#/?q=codling');
    await page.locator('.result-annotation').waitFor();
    await page.getByRole('searchbox').press('Enter');
    await page.waitForURL(new RegExp(`#/nodes/${id}/read\\?highlight=${hl}$`));
    await page.waitForFunction(inView, hl, { timeout: 5000 });
    await page.context().close();
  }, 120_000);

  it('fits a phone', async () => {
    const { hl } = await setup();
    const page = await s.signedInPage({ width: 390, height: 844 });
    await page.goto('/#/?q=codling%20moth');
    const link = page.locator(`a.result-link[href$="highlight=${hl}"]`);
    await link.locator('.result-annotation').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'search-highlight-phone');
    await link.click();
    await page.waitForFunction(inView, hl, { timeout: 5000 });
    await page.context().close();
  }, 120_000);
});
