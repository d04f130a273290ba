// The dashboard end to end (4/4): phone and tablet layouts, labels, dark theme, missing endpoints.
// A real server process, real headless Chromium, real clicks; screenshots go to test/artifacts/.
import { describe, expect, it } from 'vitest';
import { e2eSuite, screenshot } from './harness.js';

const s = e2eSuite();

describe('layout', () => {
  it('fits a phone screen without sideways scrolling', async () => {
    const page = await s.signedInPage({ width: 360, height: 740 });
    const node = await s.api<{ id: string }>('POST', '/nodes', { title: 'Pocket-sized notes', summary: 'Reading on a phone should not need sideways scrolling.', content: '# Small screens\n\nA long line of text that has to wrap nicely on a narrow screen without overflowing its card.', tags: ['mobile'] });
    for (const [route, name] of [['/', 'phone-search'], ['/#/captures', 'phone-captures'], [`/#/nodes/${node.body.id}`, 'phone-node'], ['/#/para', 'phone-para'], ['/#/settings', 'phone-settings']] as const) {
      await page.goto(route);
      await page.locator('main .card, main .health').first().waitFor();
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        // The innermost elements sticking out, to say what to fix.
        culprits: [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > innerWidth + 1 && ![...el.children].some((c) => c.getBoundingClientRect().right > innerWidth + 1))
          .slice(0, 5)
          .map((el) => el.outerHTML.slice(0, 100)),
      }));
      expect(overflow.width, `${name}: ${overflow.culprits.join('\n')}`).toBeLessThanOrEqual(360);
      await screenshot(page, name);
    }
    await page.context().close();
  });

  it('fits a tablet screen without sideways scrolling', async () => {
    const page = await s.signedInPage({ width: 768, height: 1024 });
    for (const route of ['/', '/#/para', '/#/settings']) {
      await page.goto(route);
      await page.locator('main .card, main .health').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.documentElement.scrollWidth), route).toBeLessThanOrEqual(768);
    }
    await screenshot(page, 'tablet-settings');
    await page.context().close();
  });

  it('labels every form control on every page', async () => {
    const page = await s.signedInPage();
    for (const route of ['/', '/#/nodes/new', '/#/para', '/#/captures', '/#/settings']) {
      await page.goto(route);
      await page.locator('main .card, main .health').first().waitFor();
      await page.waitForLoadState('networkidle');
      const unlabelled = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLInputElement>('input, select, textarea, button')]
          .filter((el) => el.type !== 'hidden')
          .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || (el.tagName === 'BUTTON' && el.textContent!.trim())))
          .map((el) => el.outerHTML.slice(0, 120)),
      );
      expect(unlabelled, route).toEqual([]);
    }
    await page.context().close();
  });

  it('follows a dark system theme', async () => {
    await s.api('POST', '/nodes', { title: 'Night reading', summary: 'Dark theme check.', tags: ['dark'] });
    const page = await s.signedInPage({ dark: true });
    await page.goto('/');
    await page.locator('#results .result').first().waitFor();
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, bl] = bg.match(/\d+/g)!.map(Number);
    expect(r + g + bl).toBeLessThan(120);
    await screenshot(page, 'dark-search');
    await page.context().close();
  });

  it('shows the API problem detail when an endpoint is missing, instead of breaking', async () => {
    const page = await s.signedInPage();
    await page.route('**/api/v1/graph-health', (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found', detail: 'Route GET /api/v1/graph-health not found' }),
      }),
    );
    await page.goto('/');
    await page.getByText('Graph health is not available').waitFor();
    await page.getByText('Route GET /api/v1/graph-health not found').waitFor();
    await page.getByLabel('Search nodes').waitFor(); // the rest of the page still works
    await page.context().close();
  });
});
