// The dashboard end to end: a real server process, real headless Chromium, real clicks.
// Screenshots of the main pages land in test/artifacts/ and are checked for visible content.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, startBrowser, startServer, type Browsing, type Server } from './harness.js';

let server: Server;
let b: Browsing;

async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(server.url + '/api/v1' + path, {
    method,
    headers: { Authorization: `ApiKey ${server.apiKey}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function signedInPage(opts: { width?: number; height?: number; dark?: boolean } = {}): Promise<Page> {
  const ctx = await b.newContext({ ...opts, apiKey: server.apiKey, baseUrl: server.url });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => {
    throw new Error(`uncaught error in the page: ${e.message}`);
  });
  return page;
}

beforeAll(async () => {
  server = await startServer(7851);
  b = await startBrowser();
}, 120_000);

afterAll(async () => {
  await b?.close();
  await server?.stop();
});

describe('serving', () => {
  it('serves index.html with no-cache and its hashed bundles with a year-long immutable cache', async () => {
    const index = await fetch(server.url + '/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const js = html.match(/src="(\/assets\/app-[A-Z0-9]+\.js)"/)?.[1];
    const css = html.match(/href="(\/assets\/app-[A-Z0-9]+\.css)"/)?.[1];
    expect(js && css).toBeTruthy();
    const asset = await fetch(server.url + js, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(server.url + css)).headers.get('content-type')).toMatch(/text\/css/);
    // Revalidation of index.html is cheap.
    const again = await fetch(server.url + '/', { headers: { 'If-None-Match': index.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('leaves /api, /health and unknown paths to the API (problem+json, not the page)', async () => {
    expect((await fetch(server.url + '/health')).headers.get('content-type')).toMatch(/json/);
    expect((await fetch(server.url + '/mcp')).headers.get('content-type') ?? '').not.toMatch(/html/);
    const api404 = await fetch(server.url + '/api/v1/nope');
    expect(api404.status).toBe(401);
    const missing = await fetch(server.url + '/assets/app-NOTTHERE.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/problem\+json/);
  });
});

/** Requests a magic link for `email` in the page and follows the link from the server log. */
async function signInByLink(page: Page, email: string): Promise<void> {
  const before = server.log().length;
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send link' }).click();
  await page.getByText('a sign-in link is on its way').waitFor();
  await expect.poll(() => /Sign in to Rhizome: \S+/.test(server.log().slice(before))).toBe(true);
  const link = server.log().slice(before).match(/Sign in to Rhizome: (\S+)/)![1];
  expect(link).toMatch(/\/#\/login\?token=/);
  await page.goto(link);
  await page.getByLabel('Search nodes').waitFor();
}

describe('sign-in', () => {
  it('signs in by pasting an API key, and signs out again', async () => {
    const ctx = await b.newContext({ baseUrl: server.url });
    const page = await ctx.newPage();
    await page.goto('/');
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to Rhizome' }).isVisible()).toBe(true);
    await screenshot(page, 'sign-in');
    await page.getByRole('textbox', { name: 'API key' }).fill('key_nope.wrong');
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await page.getByText('does not accept this key').waitFor();
    await page.getByRole('textbox', { name: 'API key' }).fill(server.apiKey);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await page.getByLabel('Search nodes').waitFor();
    await page.reload();
    await page.getByLabel('Search nodes').waitFor(); // the session survives a reload
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Rhizome' }).waitFor();
    await ctx.close();
  });

  it('signs in with a magic link from the server log and refreshes the session before expiry and on 401', async () => {
    server.cli('users', 'add', 'ada@example.com', '--tenant', 'default');
    const ctx = await b.newContext({ baseUrl: server.url });
    const page = await ctx.newPage();
    await signInByLink(page, 'ada@example.com');
    expect(page.url()).not.toContain('token=');
    const first = await page.evaluate(() => JSON.parse(localStorage.getItem('rhizome.session')!));
    expect(first.kind).toBe('bearer');

    // Near expiry: the next request refreshes first.
    await page.evaluate(() => {
      const s = JSON.parse(localStorage.getItem('rhizome.session')!);
      localStorage.setItem('rhizome.session', JSON.stringify({ ...s, expiresAt: Date.now() + 1000 }));
    });
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/refresh') && r.status() === 200);
    await page.reload();
    await refreshed;
    await page.getByLabel('Search nodes').waitFor();
    const second = await page.evaluate(() => JSON.parse(localStorage.getItem('rhizome.session')!));
    expect(second.refresh).not.toBe(first.refresh);

    // A rejected access token (401) triggers a refresh and the request is retried.
    await page.evaluate(() => {
      const s = JSON.parse(localStorage.getItem('rhizome.session')!);
      localStorage.setItem('rhizome.session', JSON.stringify({ ...s, access: 'not-a-valid-token' }));
    });
    const again = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/refresh') && r.status() === 200);
    await page.goto('/#/settings');
    await again;
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await expect.poll(() => page.getByRole('cell', { name: /default/ }).count()).toBeGreaterThan(0);
    await ctx.close();
  });

  it('two tabs refreshing at once spend the refresh token once (no reuse, session kept)', async () => {
    server.cli('users', 'add', 'grace@example.com', '--tenant', 'default');
    const ctx = await b.newContext({ baseUrl: server.url });
    const one = await ctx.newPage();
    await signInByLink(one, 'grace@example.com');
    const two = await ctx.newPage();
    await two.goto('/');
    await two.getByLabel('Search nodes').waitFor();
    const refreshes: number[] = [];
    ctx.on('response', (r) => {
      if (r.url().endsWith('/api/v1/auth/refresh')) refreshes.push(r.status());
    });
    await one.evaluate(() => {
      const s = JSON.parse(localStorage.getItem('rhizome.session')!);
      localStorage.setItem('rhizome.session', JSON.stringify({ ...s, expiresAt: Date.now() + 1000 }));
    });
    await Promise.all([one.reload(), two.reload()]);
    await Promise.all([one.getByLabel('Search nodes').waitFor(), two.getByLabel('Search nodes').waitFor()]);
    await Promise.all([one.locator('.health-cell').first().waitFor(), two.locator('.health-cell').first().waitFor()]);
    expect(refreshes).toEqual([200]);
    // Both tabs are still signed in, on the same rotated session.
    await two.goto('/#/settings');
    await two.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await two.getByRole('heading', { name: 'Sign in to Rhizome' }).count()).toBe(0);
    await ctx.close();
  });

  it('an invalid magic link says so and offers the sign-in forms', async () => {
    const ctx = await b.newContext({ baseUrl: server.url });
    const page = await ctx.newPage();
    await page.goto('/#/login?token=not-a-real-token');
    await page.getByText('This sign-in link did not work').waitFor();
    await page.getByText('invalid, expired or already used').waitFor();
    await ctx.close();
  });
});

describe('nodes and search', () => {
  it('creates a node, renders its markdown safely, and changes its status', async () => {
    const page = await signedInPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'New node' }).first().click();
    await page.getByLabel('Title').fill('Mycelium networks share nutrients');
    await page.getByLabel('Summary').fill('Fungal threads connect tree roots and move carbon between them.');
    await page.getByLabel('Content (Markdown)').fill('## Wood wide web\n\nTrees trade **sugar** through fungi.\n\n<img src=x onerror="window.__xss=1">\n\n- roots\n- hyphae');
    await page.getByLabel('Tags').fill('biology, forests');
    await screenshot(page, 'new-node');
    await page.getByRole('button', { name: 'Create node' }).click();
    await page.getByRole('heading', { name: 'Mycelium networks share nutrients' }).waitFor();
    await page.getByRole('heading', { name: 'Wood wide web' }).waitFor();
    expect(await page.locator('.prose strong').textContent()).toBe('sugar');
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('.prose img[onerror]').count()).toBe(0);
    await page.getByRole('button', { name: 'Validated' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Validated' }).getAttribute('aria-pressed')).toBe('true');
    const id = decodeURIComponent(page.url().split('/nodes/')[1]);
    const stored = await api<{ status: string; tags: string[] }>('GET', `/nodes/${id}`);
    expect(stored.body.status).toBe('validated');
    expect(stored.body.tags).toEqual(['biology', 'forests']);
    await page.context().close();
  });

  it('searches with provenance badges and opens a result with the keyboard', async () => {
    for (const [title, content] of [
      ['Composting kitchen scraps', 'Worms turn vegetable peelings into rich soil over a few months.'],
      ['Sourdough starter care', 'Feed the starter flour and water daily; keep it warm.'],
      ['Bread baking schedule', 'Levain at night, bulk ferment in the morning, bake in the evening.'],
    ]) {
      expect((await api('POST', '/nodes', { title, content })).status).toBe(201);
    }
    const page = await signedInPage();
    await page.goto('/');
    await page.getByRole('region', { name: 'Graph health' }).waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('search-input');
    await page.keyboard.type('sourdough starter');
    expect(await page.getByLabel('Search nodes').inputValue()).toBe('sourdough starter');
    const first = page.locator('#results .result').first();
    await first.getByText('Sourdough starter care').waitFor();
    await first.locator('.badge-keyword').waitFor();
    // The semantic side joins in once the embedding job has run.
    await expect
      .poll(async () => {
        await page.locator('.segmented label', { hasText: 'Keyword' }).click();
        await page.locator('.segmented label', { hasText: 'Hybrid' }).click();
        await page.locator('#results .result').first().getByText('Sourdough starter care').waitFor();
        return page.locator('#results .result').first().locator('.badge-semantic').count();
      }, { timeout: 100_000, interval: 1000 })
      .toBeGreaterThan(0);
    await expect.poll(() => first.locator('.score').textContent()).toMatch(/^\d\.\d{3}$/);
    await screenshot(page, 'search');

    await page.getByLabel('Search nodes').focus();
    await page.keyboard.press('ArrowDown');
    const active = await page.locator('#results .result.active .result-title').textContent();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: active!, level: 1 }).waitFor();
    await page.context().close();
  }, 150_000);

  it('links a suggested node in one click, draws the neighbourhood with cytoscape, adds and removes a typed link', async () => {
    const a = await api<{ id: string }>('POST', '/nodes', { title: 'River deltas and sediment', content: 'Rivers drop sediment where they meet the sea, building deltas.' });
    const c = await api<{ id: string }>('POST', '/nodes', { title: 'Sediment transport in rivers', content: 'Rivers carry sediment downstream; deltas form at the mouth.' });
    const d = await api<{ id: string }>('POST', '/nodes', { title: 'Estuary ecology', content: 'Where rivers meet the sea, brackish water shelters fish.' });
    expect((await api('PATCH', `/nodes/${c.body.id}/links`, { links: [{ target_id: d.body.id, type: 'supports' }] })).status).toBe(200);
    const page = await signedInPage();
    await page.goto(`/#/nodes/${a.body.id}`);
    await page.getByRole('heading', { name: 'River deltas and sediment' }).waitFor();
    const suggestion = page.locator('.suggestions li', { hasText: 'Sediment transport in rivers' });
    await suggestion.waitFor({ timeout: 30_000 });
    await suggestion.getByRole('button', { name: /Link/ }).click();
    await page.locator('.link-list li', { hasText: 'Sediment transport in rivers' }).waitFor();
    const related = await api<{ nodes: Array<{ id: string; relationship_type: string }> }>('GET', `/nodes/${a.body.id}/related`);
    expect(related.body.nodes).toEqual([expect.objectContaining({ id: c.body.id, relationship_type: 'related' })]);
    // Two hops: the delta node → sediment transport → estuary.
    await page.locator('.graph canvas').first().waitFor();
    await expect.poll(() => page.locator('.graph-figure figcaption').textContent()).toContain('2 nodes within two hops');
    await screenshot(page, 'node');

    // Add a typed link by searching for its target, then remove it again.
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByLabel('Type').selectOption('supports');
    await page.getByLabel('Find node').fill('Estuary ecology');
    await page.locator('.pick-list li', { hasText: 'Estuary ecology' }).getByRole('button', { name: 'Link' }).click();
    await page.locator('.link-list li', { hasText: 'Estuary ecology' }).getByText('supports').waitFor();
    const both = await api<{ nodes: Array<{ id: string; relationship_type: string }> }>('GET', `/nodes/${a.body.id}/related`);
    expect(both.body.nodes.map((n) => n.relationship_type).sort()).toEqual(['related', 'supports']);
    const reverse = await api<{ nodes: Array<{ id: string; relationship_type: string }> }>('GET', `/nodes/${d.body.id}/related`);
    expect(reverse.body.nodes).toContainEqual(expect.objectContaining({ id: a.body.id, relationship_type: 'supported_by' }));
    await page.getByRole('button', { name: 'Remove link to Estuary ecology' }).click();
    await expect.poll(() => page.locator('.link-list li', { hasText: 'Estuary ecology' }).count()).toBe(0);
    expect((await api<{ nodes: unknown[] }>('GET', `/nodes/${a.body.id}/related`)).body.nodes).toHaveLength(1);
    await page.context().close();
  }, 120_000);
});

describe('PARA', () => {
  it('creates items, shows the tree with counts, and shows the rescan limit as a countdown', async () => {
    const page = await signedInPage();
    await page.goto('/#/para');
    await page.getByRole('heading', { name: 'PARA', level: 1 }).waitFor();
    await page.getByLabel('Category').selectOption('projects');
    await page.getByLabel('Label').fill('Garden redesign');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.para-item', { hasText: 'Garden redesign' }).waitFor();
    await page.getByRole('button', { name: 'Complete: Garden redesign' }).click();
    await page.getByRole('button', { name: 'Undo complete: Garden redesign' }).click();
    await page.getByRole('button', { name: 'Complete: Garden redesign' }).waitFor();
    await page.getByRole('button', { name: 'Rescan orphans' }).click();
    await page.getByText(/queued for reclassification/).waitFor();
    await page.getByRole('button', { name: 'Rescan orphans' }).click();
    await page.getByText(/Rate limited: available again in \d+:\d\d/).waitFor();
    expect(await page.getByRole('button', { name: 'Rescan orphans' }).isDisabled()).toBe(true);
    await screenshot(page, 'para');
    // Assign a node to the project from the node's edit form; the tree counts it.
    const node = await api<{ id: string }>('POST', '/nodes', { title: 'Raised bed layout', content: 'Four beds, one metre wide.' });
    await page.goto(`/#/nodes/${node.body.id}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('checkbox', { name: /Garden redesign/ }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.badge-para', { hasText: 'Garden redesign' }).waitFor();
    expect((await api<{ para_item_ids: string[] }>('GET', `/nodes/${node.body.id}`)).body.para_item_ids).toHaveLength(1);
    await page.goto('/#/para');
    await expect.poll(() => page.locator('.para-item', { hasText: 'Garden redesign' }).locator('.count').textContent()).toBe('1');
    await page.getByRole('button', { name: 'Archive: Garden redesign' }).click();
    await expect.poll(() => page.locator('.para-item', { hasText: 'Garden redesign' }).count()).toBe(0);
    await page.context().close();
  });
});

describe('captures', () => {
  it('checks file type and size before uploading, then uploads a dropped-in Markdown file', async () => {
    const page = await signedInPage();
    await page.goto('/#/captures');
    await page.getByRole('tab', { name: 'File' }).click();
    await page.getByText('up to 25 MB').waitFor();
    await page.setInputFiles('#cap-file', { name: 'movie.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await page.getByText('is not a supported type').waitFor();
    expect(await page.getByRole('button', { name: 'Capture', exact: true }).isDisabled()).toBe(true);
    // Dropped onto the drop zone, built inside the page (no 25 MB round trip through the driver).
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(25 * 1024 * 1024 + 1)], 'huge.pdf', { type: 'application/pdf' }));
      document.querySelector('.dropzone')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.getByText('the limit is 25 MB').waitFor();
    expect(await page.getByRole('button', { name: 'Capture', exact: true }).isDisabled()).toBe(true);
    await page.setInputFiles('#cap-file', { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nfine') });
    await page.getByText('notes.md').waitFor();
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await page.locator('.capture-row', { hasText: 'notes' }).locator('.badge-status-completed').waitFor({ timeout: 45_000 });
    await page.context().close();
  }, 120_000);

  it('captures a note and watches it complete, then shows its timeline and provenance', async () => {
    const page = await signedInPage();
    await page.goto('/#/captures');
    await page.getByRole('tab', { name: 'Note' }).click();
    await page.getByRole('textbox', { name: 'Note' }).fill('Plant garlic in autumn, about five centimetres deep, pointy end up. Mulch well before frost.');
    await page.getByLabel('Title (optional)').fill('Garlic planting');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    const row = page.locator('.capture-row', { hasText: 'Garlic planting' });
    await row.waitFor();
    await row.locator('.badge-status-completed').waitFor({ timeout: 45_000 });
    await screenshot(page, 'captures');
    await row.getByRole('link', { name: 'Garlic planting' }).click();
    await page.getByRole('heading', { name: 'Garlic planting', level: 1 }).waitFor();
    await page.locator('.timeline li', { hasText: /completed/i }).first().waitFor();
    await page.locator('.stages li').first().waitFor();
    await screenshot(page, 'capture');
    await page.getByRole('link', { name: 'Open node' }).click();
    await page.getByRole('heading', { name: 'Garlic planting', level: 1 }).waitFor();
    await page.context().close();
  }, 120_000);
});

describe('capture lifecycle', () => {
  it('shows why a capture failed, retries it, archives and unarchives it', async () => {
    const page = await signedInPage();
    await page.goto('/#/captures');
    // Loopback addresses are refused by the fetcher (RHIZOME_ALLOW_PRIVATE_FETCH is off).
    await page.getByRole('textbox', { name: 'URL' }).fill('http://127.0.0.1:9/private-page');
    await page.getByLabel('Title (optional)').fill('Private page');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    const row = page.locator('.capture-row', { hasText: 'Private page' });
    await row.locator('.badge-status-failed').waitFor({ timeout: 60_000 });
    await row.locator('.error-text').waitFor();
    await row.getByRole('link', { name: 'Private page' }).click();
    await page.getByRole('heading', { name: 'Private page', level: 1 }).waitFor();
    await page.getByText('Processing failed').waitFor();
    await page.getByRole('button', { name: 'Retry: Private page' }).click();
    await page.locator('.timeline li', { hasText: /retried/i }).first().waitFor();
    await page.locator('.page-head .badge-status-failed').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Archive: Private page' }).click();
    await page.locator('.page-head .badge-status-archived').waitFor();
    await page.getByRole('button', { name: 'Unarchive: Private page' }).click();
    await page.locator('.page-head .badge-status-failed').waitFor();
    await page.context().close();
  }, 150_000);
});

describe('settings', () => {
  it('creates an API key shown once with a copy button, and revokes it', async () => {
    const page = await signedInPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.goto('/#/settings');
    await page.getByLabel('Name').fill('laptop CLI');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('New API key').inputValue();
    expect(key).toMatch(/^[^.]+\.[^.]+$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const works = await fetch(server.url + '/api/v1/auth/api-keys', { headers: { Authorization: `ApiKey ${key}` } });
    expect(works.status).toBe(200);
    await page.getByRole('row', { name: /laptop CLI/ }).waitFor();
    await screenshot(page, 'settings');

    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke laptop CLI' }).click();
    await expect.poll(() => page.getByRole('row', { name: /laptop CLI/ }).count()).toBe(0);
    const revoked = await fetch(server.url + '/api/v1/auth/api-keys', { headers: { Authorization: `ApiKey ${key}` } });
    expect(revoked.status).toBe(401);
    await page.reload();
    expect(await page.getByLabel('New API key').count()).toBe(0); // shown once, never again
    await page.context().close();
  });
});

describe('layout', () => {
  it('fits a phone screen without sideways scrolling', async () => {
    const page = await signedInPage({ width: 375, height: 740 });
    const node = await api<{ id: string }>('POST', '/nodes', { title: 'Pocket-sized notes', summary: 'Reading on a phone should not need sideways scrolling.', content: '# Small screens\n\nA long line of text that has to wrap nicely on a narrow screen without overflowing its card.', tags: ['mobile'] });
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
      expect(overflow.width, `${name}: ${overflow.culprits.join('\n')}`).toBeLessThanOrEqual(375);
      await screenshot(page, name);
    }
    await page.context().close();
  });

  it('fits a tablet screen without sideways scrolling', async () => {
    const page = await signedInPage({ width: 768, height: 1024 });
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
    const page = await signedInPage();
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
    const page = await signedInPage({ dark: true });
    await page.goto('/');
    await page.locator('#results .result').first().waitFor();
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, bl] = bg.match(/\d+/g)!.map(Number);
    expect(r + g + bl).toBeLessThan(120);
    await screenshot(page, 'dark-search');
    await page.context().close();
  });

  it('shows the API problem detail when an endpoint is missing, instead of breaking', async () => {
    const page = await signedInPage();
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
