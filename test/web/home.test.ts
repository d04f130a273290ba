// The dashboard's home, tags page, command palette, search filters and missing-node page in
// headless Chromium against a real server: health charts over daily snapshots, the inbox's
// actions, tag rename/merge/remove, Ctrl-K, tag and date filters, a way back from a dead link.
// Each page also gets an axe-core pass and its documentation screenshots.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eSuite } from './harness.js';
import { axeSerious, docShots } from './kit.js';

const s = e2eSuite();

type N = { id: string; title: string; tags: string[]; para_item_ids: string[] };
const db = () => new Database(join(s.server.dataDir, 'rhizome.db'));
const tenantId = () => {
  const d = db();
  try {
    return (d.prepare('SELECT tenant_id FROM nodes LIMIT 1').pluck().get() as string) ?? '';
  } finally {
    d.close();
  }
};

async function node(title: string, tags: string[], extra: Record<string, unknown> = {}) {
  const r = await s.api<N>('POST', '/nodes', { title, summary: `Notes on ${title.toLowerCase()}.`, content: `# ${title}\n\nWhat I learned about ${title.toLowerCase()}.`, tags, ...extra });
  expect(r.status).toBe(201);
  return r.body;
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
}

let seeded: { nodes: N[]; garden: string; kitchen: string; orphan: N } | undefined;
async function seed() {
  if (seeded) return seeded;
  const garden = (await s.api<{ id: string }>('POST', '/para', { category: 'areas', label: 'Garden', description: 'Vegetables, fruit trees and soil' })).body.id;
  const kitchen = (await s.api<{ id: string }>('POST', '/para', { category: 'projects', label: 'Kitchen remodel', description: 'New worktops and shelves' })).body.id;
  const nodes: N[] = [];
  const topics: Array<[string, string[], string[]]> = [
    ['Tomato blight in wet summers', ['garden', 'tomatoes'], [garden]],
    ['Pruning apple trees in winter', ['garden', 'fruit'], [garden]],
    ['Compost heat and turning', ['garden', 'soil'], [garden]],
    ['Oak worktop oiling schedule', ['kitchen', 'wood'], [kitchen]],
    ['Floating shelf brackets', ['kitchen', 'diy'], [kitchen]],
    ['Sourdough starter feeding', ['baking'], []],
  ];
  for (const [title, tags, para] of topics) nodes.push(await node(title, tags, { para_item_ids: para, status: nodes.length % 2 ? 'validated' : 'raw' }));
  await s.api('PATCH', `/nodes/${nodes[0].id}/links`, { links: [{ target_id: nodes[2].id, type: 'related' }] });
  await s.api('PATCH', `/nodes/${nodes[3].id}/links`, { links: [{ target_id: nodes[4].id, type: 'related' }] });
  // A capture that cannot be fetched (nothing listens on port 9 here): a failed capture.
  await s.api('POST', '/captures', { title: 'Unreachable page', url: 'http://127.0.0.1:9/nothing', content_type: 'article', source: 'api' });
  const orphan = nodes[5];
  // The classifier's filings depend on the model; the inbox's buttons are what is tested here,
  // so one automatic filing is written as the classifier writes it.
  const d = db();
  try {
    d.prepare(`INSERT INTO node_para (tenant_id, node_id, para_item_id, source, score, method, model, archived, created_at) VALUES (?, ?, ?, 'auto', 0.81, 'centroid', 'use-lite', 0, ?)`)
      .run(tenantId(), nodes[2].id, kitchen, new Date().toISOString());
    // Thirty days of history: the knowledge base grew from 1 to 6 nodes, captures failed once.
    const t = tenantId();
    const ins = d.prepare(`INSERT OR REPLACE INTO graph_health_daily (tenant_id, day, total_nodes, validated_nodes, total_links, total_captures, failed_captures, stale_nodes, orphan_nodes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    for (let i = 29; i >= 1; i--) {
      if (i % 4 === 2) continue; // days nobody looked: absent
      const day = new Date(Date.now() - i * 86_400_000).toISOString().slice(0, 10);
      const n = Math.max(1, Math.round(6 - i / 6));
      ins.run(t, day, n, Math.floor(n / 2), Math.max(0, n - 4), Math.round(n / 2), i < 10 ? 1 : 0, i > 20 ? 1 : 0, 1);
    }
  } finally {
    d.close();
  }
  // Wait for the failed capture.
  for (let i = 0; i < 100; i++) {
    const list = await s.api<{ data: Array<{ status: string }> }>('GET', '/captures');
    if (list.body.data.some((c) => c.status === 'failed')) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  seeded = { nodes, garden, kitchen, orphan };
  return seeded;
}

describe('home: health over time and the inbox', () => {
  it('draws a chart per counter from the daily snapshots and lists what needs attention', async () => {
    const { nodes, kitchen } = await seed();
    const page = await s.signedInPage({ width: 1280, height: 800 });
    await page.goto('/');
    await page.locator('.health .spark').first().waitFor();
    await page.locator('.inbox-group').first().waitFor();
    await settle(page);
    // One chart per counter that has a history, each described in words.
    const charts = await page.locator('.health svg.spark').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(charts.length).toBe(5);
    expect(charts.join('\n')).toMatch(/Nodes, last 30 days: 1 on \d{4}-\d{2}-\d{2}, \d+ on \d{4}/);
    expect(charts.join('\n')).toMatch(/Validated share/);
    expect(charts.join('\n')).toMatch(/Links per node/);
    expect(charts.join('\n')).toMatch(/Captures.*failed: 1/);
    expect(charts.join('\n')).toMatch(/Stale nodes/);
    // A line with a real shape, not a flat stub: its path has one point per snapshot day.
    const d = await page.locator('.health-cell').first().locator('path.spark-line').getAttribute('d');
    expect((d!.match(/[ML]/g) ?? []).length).toBeGreaterThanOrEqual(20);

    const inbox = page.locator('.inbox');
    await expect.poll(() => inbox.innerText()).toMatch(/Failed captures\s*1/);
    expect(await inbox.innerText()).toMatch(/Unreachable page/);
    expect(await inbox.innerText()).toMatch(/Orphans\s*\d+\s*In no PARA item/);
    expect(await inbox.innerText()).toMatch(/Filed automatically\s*\d+[\s\S]*Compost heat and turning\s*into Kitchen remodel · score 0.81/);

    await docShots(page, 'home', settle).then((r) => expect(r.violations).toEqual({}));

    // Confirm the automatic filing: it becomes the user's (the classifier will not move it).
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: /Confirm Compost heat and turning in Kitchen remodel/ }).click();
    await page.getByText('Filing confirmed').waitFor();
    const after = await s.api<{ para_assignments: Array<{ para_item_id: string; source: string }> }>('GET', `/nodes/${nodes[2].id}`);
    expect(after.body.para_assignments.find((a) => a.para_item_id === kitchen)?.source).toBe('user');

    // Retry the failed capture from the inbox: it goes back to the queue.
    await page.getByRole('button', { name: /Retry Unreachable page/ }).click();
    await page.getByText('Capture queued again').waitFor();
    await page.context().close();
  });
});

describe('search filters', () => {
  it('filters by tag and by date, shows the snippet, the tags and the PARA item', async () => {
    const { nodes } = await seed();
    // An old note: last updated in 2020.
    const d = db();
    try {
      d.prepare('UPDATE nodes SET updated_at = ? WHERE id = ?').run('2020-05-01T10:00:00.000Z', nodes[1].id);
    } finally {
      d.close();
    }
    const page = await s.signedInPage({ width: 1280, height: 800 });
    await page.goto('/#/?q=garden');
    await page.locator('#results .result').first().waitFor();
    const first = page.locator('#results .result').first();
    expect(await first.locator('.badge-para').count()).toBeGreaterThan(0);
    expect(await first.locator('.tag').count()).toBeGreaterThan(0);
    await page.goto('/#/?q=tomato');
    await page.locator('#results .result mark').first().waitFor();

    await page.goto('/');
    await page.getByLabel('Tag').selectOption('kitchen');
    await expect.poll(() => page.locator('#results .result').count()).toBe(2);
    expect(await page.locator('#results .result-title').allInnerTexts()).toEqual(expect.arrayContaining(['Oak worktop oiling schedule', 'Floating shelf brackets']));
    expect(page.url()).toContain('tag=kitchen');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Updated').selectOption('range');
    await page.getByLabel('From', { exact: true }).fill('2020-01-01');
    await page.getByLabel('To', { exact: true }).fill('2020-12-31');
    await expect.poll(() => page.locator('#results .result-title').allInnerTexts()).toEqual(['Pruning apple trees in winter']);
    await page.getByLabel('Updated').selectOption('7d');
    const all = (await s.api<{ total: number }>('GET', '/nodes')).body.total;
    await expect.poll(() => page.locator('#results .result').count()).toBe(all - 1);
    expect(await page.locator('#results .result-title').allInnerTexts()).not.toContain('Pruning apple trees in winter');
    expect(await axeSerious(page)).toEqual([]);
    await page.context().close();
  });
});

describe('tags page', () => {
  it('lists counts, renames, merges and removes tags', async () => {
    await seed();
    await node('Raised bed layout', ['gardening']);
    const page = await s.signedInPage({ width: 1280, height: 800 });
    await page.goto('/#/tags');
    await page.locator('.tag-row').first().waitFor();
    await settle(page);
    expect(await page.locator('.tag-row').first().innerText()).toMatch(/#garden\s+3 nodes/);
    await docShots(page, 'tags', settle).then((r) => expect(r.violations).toEqual({}));
    await page.setViewportSize({ width: 1280, height: 800 });

    // Merge "gardening" into "garden".
    await page.getByRole('button', { name: 'Rename / merge gardening' }).click();
    await page.getByLabel('New name for gardening').fill('garden');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByText('Merged “gardening” into “garden”').waitFor();
    const tags = (await s.api<{ data: Array<{ name: string; count: number }> }>('GET', '/tags')).body.data;
    expect(tags.find((t) => t.name === 'garden')?.count).toBe(4);
    expect(tags.some((t) => t.name === 'gardening')).toBe(false);

    // Rename "diy" to "woodwork".
    await page.getByRole('button', { name: 'Rename / merge diy' }).click();
    await page.getByLabel('New name for diy').fill('woodwork');
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    await page.getByText('Renamed to “woodwork”').waitFor();
    expect(await page.locator('.tag-name').allInnerTexts()).toContain('#woodwork');

    // Remove "baking" from every node; the node stays.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Remove baking from every node' }).click();
    await expect.poll(() => page.locator('.tag-name').allInnerTexts()).not.toContain('#baking');
    expect((await s.api<{ data: unknown[] }>('GET', '/nodes?query=sourdough&mode=keyword')).body.data.length).toBe(1);

    // A tag opens the search filtered by it.
    await page.locator('.tag-name', { hasText: '#woodwork' }).click();
    await page.locator('#results .result-title', { hasText: 'Floating shelf brackets' }).waitFor();
    await page.context().close();
  });
});

describe('command palette', () => {
  it('opens with Ctrl-K, finds a node, goes to a page, captures a URL, and gives focus back', async () => {
    await seed();
    const page = await s.signedInPage({ width: 1280, height: 800 });
    await page.goto('/#/para');
    await page.locator('.para-col').first().waitFor();
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: /Search nodes, create, capture/ });
    await box.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('palette-input');
    await box.fill('oak worktop');
    await page.locator('.palette-item', { hasText: 'Oak worktop oiling schedule' }).waitFor();
    await settle(page);
    await docShots(page, 'palette', settle).then((r) => expect(r.violations).toEqual({}));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Enter');
    await page.locator('.node-head h1', { hasText: 'Oak worktop oiling schedule' }).waitFor();

    // Go to: type, arrows, Enter.
    await page.keyboard.press('Control+k');
    await box.fill('tag');
    expect(await page.locator('.palette-item.active').innerText()).toMatch(/Tags/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/tags$/);
    // The route change moves focus to the page (Layout) a moment after the URL changes: let it,
    // so that it cannot take focus from the link below.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');

    // Escape closes and focus returns to what had it.
    await page.getByRole('link', { name: 'PARA' }).focus();
    await page.keyboard.press('Control+k');
    await box.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.palette').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('PARA');

    // A pasted URL becomes a capture.
    await page.keyboard.press('Control+k');
    await box.fill('http://127.0.0.1:9/from-the-palette');
    expect(await page.locator('.palette-item.active').innerText()).toMatch(/Capture http:\/\/127\.0\.0\.1:9\/from-the-palette/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/captures\/[^/]+$/);
    const caps = (await s.api<{ data: Array<{ url: string | null }> }>('GET', '/captures')).body.data;
    expect(caps.some((c) => c.url === 'http://127.0.0.1:9/from-the-palette')).toBe(true);

    // New node from the palette.
    await page.keyboard.press('Control+k');
    await box.fill('Bee hotel plans');
    await page.locator('.palette-item', { hasText: 'New node “Bee hotel plans”' }).click();
    await page.waitForURL(/#\/nodes\/new\?title=Bee/);
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Bee hotel plans');
    await page.context().close();
  });
});

describe('a node that does not exist', () => {
  it('says so and offers a way back', async () => {
    await seed();
    const page = await s.signedInPage({ width: 1280, height: 800 });
    await page.goto('/#/tags');
    await page.locator('.tag-row').first().waitFor();
    await page.goto('/#/nodes/does-not-exist');
    await page.getByRole('heading', { name: 'This node does not exist' }).waitFor();
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    expect(await axeSerious(page)).toEqual([]);
    await page.getByRole('button', { name: 'Go back' }).click();
    await page.waitForURL(/#\/tags$/);
    await page.goto('/#/nodes/does-not-exist');
    await page.getByRole('link', { name: 'Back to search' }).click();
    await page.locator('#search-input').waitFor();
    await page.context().close();
  });
});
