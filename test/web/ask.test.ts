// Ask your notes in the dashboard, in headless Chromium against a real server: the Ask page
// streams an answer with numbered citations; a citation opens its node scrolled to the
// passage, marked; the Ctrl-K palette asks too; a question the notes do not answer shows
// "Your notes don't say" with maybe-related notes. Screenshots at desktop and phone width.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eSuite, screenshot } from './harness.js';
import { docShots } from './kit.js';

const s = e2eSuite();

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
}

const FILLER = Array.from({ length: 14 }, (_, i) => `Paragraph ${i + 1} of the house log: the gutters, the windows and the fence were checked and nothing needed doing that week.`).join('\n\n');
let boilerId = '';
async function seed() {
  if (boilerId) return;
  const boiler = await s.api<{ id: string }>('POST', '/nodes', {
    title: 'Boiler maintenance',
    content: `# Boiler\n\n${FILLER}\n\nThe pressure gauge should read **between 1 and 1.5 bar** when the system is cold. If it drops below 1 bar, top it up with the filling loop under the boiler.\n\nThe warranty runs until 2027.`,
    tags: ['home'],
  });
  boilerId = boiler.body.id;
  await s.api('POST', '/nodes', { title: 'Bike tyres', content: 'Road tyres run at 6 to 7 bar. The gravel tyres run at 2.5 bar.', tags: ['bike'] });
  await s.api('POST', '/nodes', { title: 'Sourdough notes', content: 'Feed the starter twice a day. The loaf bakes at 230 degrees for 40 minutes.', tags: ['kitchen'] });
}

async function ask(page: Page, question: string) {
  const box = page.getByRole('searchbox', { name: 'Your question' });
  await box.fill(question);
  await box.press('Enter');
}

describe('ask your notes', () => {
  it('answers with numbered citations, each opening its node at the passage, marked', async () => {
    await seed();
    const page = await s.signedInPage({ width: 1280, height: 800 });
    await page.goto('/#/ask');
    await ask(page, 'What pressure should the boiler gauge read?');
    await page.locator('.ask-answer-text', { hasText: 'The pressure gauge should read between 1 and 1.5 bar' }).waitFor(); // as shown: no Markdown stars
    await page.locator('.ask-result[aria-busy="false"]').waitFor();
    expect(await page.locator('.ask-mode').innerText()).toMatch(/quoted from your notes/i);
    expect(await page.locator('.ask-answer-text a.ask-cite').count()).toBeGreaterThan(0);
    expect(await page.locator('.ask-citation').first().innerText()).toMatch(/Boiler maintenance/);
    await settle(page);
    await docShots(page, 'ask', settle).then((r) => expect(r.violations).toEqual({}));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.ask-answer-text a.ask-cite').first().click();
    await page.waitForURL(new RegExp(`#/nodes/${boilerId}\\?passage=\\d+-\\d+$`));
    const mark = page.locator('mark.ask-passage').first();
    await mark.waitFor();
    const marked = (await page.locator('mark.ask-passage').allInnerTexts()).join('');
    expect(marked).toContain('The pressure gauge should read');
    expect(marked).toContain('between 1 and 1.5 bar'); // across the bold
    expect(marked).not.toContain('Paragraph'); // the sentence's own paragraph, not the filler before it
    // Scrolled to: the mark is on screen although 14 paragraphs come before it.
    await expect.poll(async () => {
      const box = await mark.boundingBox();
      return !!box && box.y >= 0 && box.y + box.height <= 844;
    }).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await settle(page);
    await screenshot(page, 'ask-passage-phone');
    await page.screenshot({ path: 'test/artifacts/ask-passage-phone-viewport.png' });
    await page.context().close();
  });

  it('asks from the Ctrl-K palette', async () => {
    await seed();
    const page = await s.signedInPage({ width: 1280, height: 800 });
    await page.goto('/#/tags');
    await page.locator('main').waitFor();
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: /Search nodes, create, capture/ });
    await box.fill('what pressure should the tyres run at?');
    await expect.poll(() => page.locator('.palette-item.active').innerText()).toMatch(/Ask your notes: “what pressure should the tyres run at\?”/);
    await page.screenshot({ path: 'test/artifacts/ask-palette.png' });
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/ask\?q=what/);
    await page.locator('.ask-citation', { hasText: 'Bike tyres' }).waitFor();
    expect(await page.locator('.ask-answer-text').innerText()).toMatch(/6 to 7 bar/);
    await page.context().close();
  });

  it("says when the notes don't say, offering maybe-related notes that are not citations", async () => {
    await seed();
    const page = await s.signedInPage({ width: 390, height: 844 });
    await page.goto(`/#/ask?q=${encodeURIComponent('Who won the chess tournament in Reykjavik?')}`);
    await page.locator('.ask-answer-text', { hasText: "Your notes don't say." }).waitFor();
    await page.locator('.ask-result[aria-busy="false"]').waitFor();
    expect(await page.locator('.ask-citation').count()).toBe(0);
    expect(await page.locator('.ask-answer-text a.ask-cite').count()).toBe(0);
    await settle(page);
    await screenshot(page, 'ask-abstained-phone');
    await page.context().close();
  });
});
