// The dashboard's Feeds page, end to end: subscribe by a page's URL (its feed is found),
// watch the first items arrive, see a failing feed's error, pause and resume, export OPML;
// on a desktop and a phone width.
process.env.RHIZOME_ALLOW_PRIVATE_FETCH = '1'; // the feed server is on loopback; the child server inherits this
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedServer, type FeedServer } from '../feeds/feed-server.js';
import { e2eSuite, screenshot } from './harness.js';

const s = e2eSuite();
let fs: FeedServer;
beforeAll(async () => {
  fs = await startFeedServer();
  fs.items.set('/atom.xml', [
    { guid: 'a1', title: 'Pruning apple trees', link: fs.url('/p/a1'), content: '<p>Prune in late winter.</p>' },
    { guid: 'a2', title: 'Planting garlic', link: fs.url('/p/a2'), content: '<p>Plant cloves in autumn.</p>' },
  ]);
  fs.items.set('/rss.xml', [{ guid: 'r1', title: 'Seed swaps', link: fs.url('/p/r1'), content: 'Bring envelopes.' }]);
});
afterAll(() => fs.close());

describe('feeds page', () => {
  it('subscribes by page URL, shows items, errors and pause; exports OPML', async () => {
    const page = await s.signedInPage({ width: 1280, height: 900 });
    await page.goto('/#/feeds');
    await page.getByRole('heading', { name: 'Feeds', exact: true }).waitFor();
    await page.getByText('No feeds yet').waitFor();
    await page.getByRole('link', { name: 'Feeds' }).first().waitFor();

    await page.getByLabel('Feed or page URL').fill(fs.url('/blog'));
    await page.getByLabel('Tags').fill('orchard');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const atom = page.locator('.feed-row', { hasText: 'Atom Allotment' });
    await atom.waitFor();
    await atom.getByText('2 items').waitFor({ timeout: 30_000 });
    expect(await atom.innerText()).toContain(fs.url('/atom.xml'));
    expect(await atom.innerText()).toContain('#orchard');

    // A second feed that starts failing: its error shows on its row.
    const sub = await s.api<{ id: string }>('POST', '/feeds', { url: fs.url('/rss.xml') });
    expect(sub.status).toBe(201);
    fs.failing.set('/rss.xml', 503);
    await s.api('POST', `/feeds/${sub.body.id}/poll`);
    const rss = page.locator('.feed-row', { hasText: 'Garden Notes' });
    await page.reload();
    await rss.locator('.feed-error').waitFor({ timeout: 30_000 }).catch(async () => {
      await page.reload();
      await rss.locator('.feed-error').waitFor({ timeout: 30_000 });
    });
    expect(await rss.locator('.feed-error').innerText()).toMatch(/HTTP 503/);

    await atom.getByRole('button', { name: /^Pause/ }).click();
    await atom.locator('.badge', { hasText: 'paused' }).waitFor();
    await screenshot(page, 'feeds-desktop');
    await atom.getByRole('button', { name: /^Resume/ }).click();
    await atom.locator('.badge', { hasText: 'active' }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export OPML' }).click()]);
    const opml = readFileSync((await download.path())!, 'utf8');
    expect(opml).toContain(`xmlUrl="${fs.url('/atom.xml')}"`);
    expect(opml).toContain(`xmlUrl="${fs.url('/rss.xml')}"`);
    await page.context().close();

    const phone = await s.signedInPage({ width: 390, height: 844 });
    await phone.goto('/#/feeds');
    await phone.locator('.feed-row', { hasText: 'Atom Allotment' }).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone, 'feeds-phone');
    await phone.context().close();
  }, 180_000);
});
