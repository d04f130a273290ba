// The dashboard and issue 11: "No notes match" instead of padding, snippets with the
// matched words, and an automatic PARA filing shown as "auto · score" with "not this".
// A real server process (real model), real headless Chromium.
import { describe, expect, it } from 'vitest';
import { e2eSuite, screenshot } from './harness.js';

const s = e2eSuite();

describe('relevance in the dashboard', () => {
  it('says "No notes match" for an unrelated query and marks where the words matched', async () => {
    for (const [title, content] of [
      ['Sourdough starter care', 'Feed the starter flour and water daily; keep it warm.'],
      ['Compost heap', 'Turn the pile every two weeks so it heats up.'],
    ]) {
      expect((await s.api('POST', '/nodes', { title, content })).status).toBe(201);
    }
    const page = await s.signedInPage();
    await page.goto('/#/?q=flour%20water');
    await page.locator('#results .result').first().getByText('Sourdough starter care').waitFor();
    await expect.poll(() => page.locator('#results .result-snippet mark').allTextContents()).toEqual(expect.arrayContaining(['flour', 'water']));
    await screenshot(page, 'search-snippet');
    // Wait until the model has embedded the notes, then ask about something else entirely.
    await expect.poll(async () => (await s.api<{ total: number }>('GET', '/nodes?mode=semantic&query=Sourdough%20starter%20care')).body.total, { timeout: 100_000, interval: 1000 }).toBeGreaterThan(0);
    await page.goto('/#/?q=quantum%20chromodynamics%20gluon%20confinement');
    await page.getByText('No notes match').waitFor();
    expect(await page.locator('#results .result').count()).toBe(0);
    await page.context().close();
  }, 150_000);

  it('shows an automatic PARA filing as "auto · score" and removes it with one click, for good', async () => {
    const item = await s.api<{ id: string }>('POST', '/para', { category: 'projects', label: 'Kitchen renovation', description: 'Remodelling the kitchen: cabinets, countertops, appliances, contractor quotes and the renovation budget.' });
    const node = await s.api<{ id: string }>('POST', '/nodes', { title: 'Quote from the builders', content: 'They quoted 18,400 for demolition, new base cabinets and installing the countertop; plumbing for the sink is extra.' });
    await expect.poll(async () => (await s.api<{ para_item_ids: string[] }>('GET', `/nodes/${node.body.id}`)).body.para_item_ids, { timeout: 100_000, interval: 1000 }).toEqual([item.body.id]);
    const page = await s.signedInPage();
    await page.goto(`/#/nodes/${node.body.id}`);
    await page.getByText(/^auto · \d\.\d\d$/).waitFor();
    await screenshot(page, 'para-auto');
    await page.getByRole('button', { name: 'not this' }).click();
    await page.getByText(/Orphan: in no project/).waitFor();
    const after = await s.api<{ para_item_ids: string[]; para_assignments: unknown[] }>('GET', `/nodes/${node.body.id}`);
    expect(after.body.para_item_ids).toEqual([]);
    expect(after.body.para_assignments).toEqual([]);
    await page.context().close();
  }, 150_000);
});
