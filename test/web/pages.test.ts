// Every page of the dashboard from the keyboard and through axe-core: each visible control is
// reached by Tab, no serious or critical accessibility violation at 1280×800 and 390×844 in
// light and dark, and the documentation screenshots of the pages no other test shoots.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eSuite } from './harness.js';
import { axeSerious, docShots } from './kit.js';
import { unreachableByTab } from './keyboard.js';

const s = e2eSuite();

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
}

let seeded = false;
async function seed() {
  if (seeded) return;
  seeded = true;
  const para = (await s.api<{ id: string }>('POST', '/para', { category: 'projects', label: 'Thesis', description: 'Chapter drafts and sources' })).body.id;
  await s.api('POST', '/para', { category: 'areas', label: 'Health', description: 'Running, sleep, food' });
  await s.api('POST', '/para', { category: 'resources', label: 'Typography', description: 'Type, layout and reading' });
  for (const [title, tags] of [['Literature review outline', ['thesis', 'writing']], ['Interval training log', ['running']], ['Measure of a good line length', ['typography', 'reading']]] as const) {
    await s.api('POST', '/nodes', { title, summary: `About ${title.toLowerCase()}.`, content: `Notes on ${title.toLowerCase()}.`, tags, para_item_ids: title.startsWith('Lit') ? [para] : [] });
  }
}

const PAGES: Array<{ route: string; name: string; ready: string; shots?: string; axe?: boolean }> = [
  { route: '/', name: 'home', ready: '.health .health-cell' },
  { route: '/#/?q=line%20length', name: 'search', ready: '#results .result', shots: 'search' },
  { route: '/#/para', name: 'para', ready: '.para-col', shots: 'para' },
  { route: '/#/tags', name: 'tags', ready: '.tag-row' },
  { route: '/#/import', name: 'import', ready: 'main .card', shots: 'import' },
  { route: '/#/settings', name: 'settings', ready: 'main .card', shots: 'settings' },
  { route: '/#/captures', name: 'captures', ready: 'main .card, main .empty' },
  { route: '/#/nodes/new', name: 'new node', ready: 'main form' },
  { route: '/#/graph', name: 'graph', ready: 'main' },
  { route: '/#/nodes/nope', name: 'missing node', ready: 'main h1' },
  { route: '/#/no-such-page', name: 'page not found', ready: 'main h1', axe: true },
  { route: '/#/bookmarklet?url=https%3A%2F%2Fexample.org%2Farticle&title=An%20article', name: 'bookmarklet popup', ready: '.bm form', axe: true },
];

describe('every page', () => {
  for (const p of PAGES) {
    it(`${p.name}: every control reachable by Tab${p.shots ? ', axe-clean in both themes and sizes' : ''}`, async () => {
      await seed();
      const page = await s.signedInPage({ width: 1280, height: 800 });
      await page.goto(p.route);
      await page.locator(p.ready).first().waitFor();
      await settle(page);
      expect(await unreachableByTab(page), p.route).toEqual([]);
      if (p.axe) expect(await axeSerious(page), p.route).toEqual([]);
      if (p.shots) {
        const { violations } = await docShots(page, p.shots, settle);
        expect(violations, p.route).toEqual({});
      }
      await page.context().close();
    });
  }

  it('the sign-in page: reachable by Tab, axe-clean', async () => {
    const page = await s.anonymousPage();
    await page.goto('/');
    await page.locator('main, form').first().waitFor();
    await settle(page);
    expect(await unreachableByTab(page)).toEqual([]);
    const { violations } = await docShots(page, 'login', settle);
    expect(violations).toEqual({});
    await page.context().close();
  });
});
