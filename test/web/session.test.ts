// The dashboard end to end (1/4): serving, signing in by key and by magic link, session refresh.
// A real server process, real headless Chromium, real clicks; screenshots go to test/artifacts/.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eSuite, screenshot } from './harness.js';

const s = e2eSuite();

/** Requests a magic link for `email` in the page and follows the link from the server log. */
async function signInByLink(page: Page, email: string): Promise<void> {
  const before = s.server.log().length;
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send link' }).click();
  await page.getByText('a sign-in link is on its way').waitFor();
  await expect.poll(() => /Sign in to Rhizome: \S+/.test(s.server.log().slice(before))).toBe(true);
  const link = s.server.log().slice(before).match(/Sign in to Rhizome: (\S+)/)![1];
  expect(link).toMatch(/\/#\/login\?token=/);
  await page.goto(link);
  await page.getByLabel('Search nodes').waitFor();
}

/** A browser context signed in as a new user in tab `one`, a second tab, and the refresh answers seen. */
async function twoTabs(email: string) {
  s.server.cli('users', 'add', email, '--tenant', 'default');
  const ctx = await s.browser.newContext({ baseUrl: s.server.url });
  const one = await ctx.newPage();
  await signInByLink(one, email);
  const two = await ctx.newPage();
  const refreshes: number[] = [];
  ctx.on('response', (r) => {
    if (r.url().endsWith('/api/v1/auth/refresh')) refreshes.push(r.status());
  });
  return { ctx, one, two, refreshes };
}

/** The second tab is still signed in (on the rotated session). */
async function stillSignedIn(page: Page): Promise<void> {
  await page.goto('/#/settings');
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  expect(await page.getByRole('heading', { name: 'Sign in to Rhizome' }).count()).toBe(0);
}

describe('serving', () => {
  it('serves index.html with no-cache and its hashed bundles with a year-long immutable cache', async () => {
    const index = await fetch(s.server.url + '/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const js = html.match(/src="(\/assets\/app-[A-Z0-9]+\.js)"/)?.[1];
    const css = html.match(/href="(\/assets\/app-[A-Z0-9]+\.css)"/)?.[1];
    expect(js && css).toBeTruthy();
    const asset = await fetch(s.server.url + js, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(s.server.url + css)).headers.get('content-type')).toMatch(/text\/css/);
    // Revalidation of index.html is cheap.
    const again = await fetch(s.server.url + '/', { headers: { 'If-None-Match': index.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('leaves /api, /health and unknown paths to the API (problem+json, not the page)', async () => {
    expect((await fetch(s.server.url + '/health')).headers.get('content-type')).toMatch(/json/);
    expect((await fetch(s.server.url + '/mcp')).headers.get('content-type') ?? '').not.toMatch(/html/);
    const api404 = await fetch(s.server.url + '/api/v1/nope');
    expect(api404.status).toBe(401);
    const missing = await fetch(s.server.url + '/assets/app-NOTTHERE.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/problem\+json/);
  });
});

describe('sign-in', () => {
  it('signs in by pasting an API key, and signs out again', async () => {
    const page = await s.anonymousPage();
    const ctx = page.context();
    await page.goto('/');
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to Rhizome' }).isVisible()).toBe(true);
    await screenshot(page, 'sign-in');
    await page.getByRole('textbox', { name: 'API key' }).fill('key_nope.wrong');
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await page.getByText('does not accept this key').waitFor();
    await page.getByRole('textbox', { name: 'API key' }).fill(s.server.apiKey);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await page.getByLabel('Search nodes').waitFor();
    await page.reload();
    await page.getByLabel('Search nodes').waitFor(); // the session survives a reload
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Rhizome' }).waitFor();
    await ctx.close();
  });

  it('signs in with a magic link from the server log and refreshes the session before expiry and on 401', async () => {
    s.server.cli('users', 'add', 'ada@example.com', '--tenant', 'default');
    const page = await s.anonymousPage();
    const ctx = page.context();
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
    const { ctx, one, two, refreshes } = await twoTabs('grace@example.com');
    await two.goto('/');
    await two.getByLabel('Search nodes').waitFor();
    await one.evaluate(() => {
      const s = JSON.parse(localStorage.getItem('rhizome.session')!);
      localStorage.setItem('rhizome.session', JSON.stringify({ ...s, expiresAt: Date.now() + 1000 }));
    });
    await Promise.all([one.reload(), two.reload()]);
    await Promise.all([one.getByLabel('Search nodes').waitFor(), two.getByLabel('Search nodes').waitFor()]);
    await Promise.all([one.locator('.health-cell').first().waitFor(), two.locator('.health-cell').first().waitFor()]);
    expect(refreshes).toEqual([200]);
    await stillSignedIn(two);
    await ctx.close();
  });

  it('a tab whose copy of the session is behind waits for the tab spending the token', async () => {
    // Chromium hands one tab's localStorage writes to the others asynchronously, so the tab
    // that takes the refresh lock next can still read the token the last holder just spent.
    // Here tab one plays such a holder: it marks the token as being spent the way the
    // dashboard does (a Web Lock named after it) and only then spends it and stores the new
    // tokens. Tab two must wait for them rather than spend the dead token.
    const { ctx, one, two, refreshes } = await twoTabs('hopper@example.com');
    await one.evaluate(async () => {
      const s = JSON.parse(localStorage.getItem('rhizome.session')!);
      await new Promise<void>((granted) => {
        void navigator.locks.request('rhizome-spent:' + s.refresh.slice(-24), () => {
          granted();
          return new Promise<void>((release) => ((window as unknown as { releaseSpent: () => void }).releaseSpent = release));
        });
      });
      localStorage.setItem('rhizome.session', JSON.stringify({ ...s, expiresAt: Date.now() + 1000 }));
    });
    await two.goto('/');
    const refreshing = () => one.evaluate(async () => (await navigator.locks.query()).held!.some((l) => l.name === 'rhizome-refresh'));
    await expect.poll(refreshing).toBe(true);
    await two.waitForTimeout(300);
    expect(refreshes).toEqual([]);
    await one.evaluate(async () => {
      const s = JSON.parse(localStorage.getItem('rhizome.session')!);
      const res = await fetch('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refresh_token: s.refresh }),
      });
      const t = await res.json();
      localStorage.setItem(
        'rhizome.session',
        JSON.stringify({ kind: 'bearer', access: t.access_token, refresh: t.refresh_token, expiresAt: Date.now() + t.expires_in * 1000 }),
      );
      (window as unknown as { releaseSpent: () => void }).releaseSpent();
    });
    await two.locator('.health-cell').first().waitFor();
    expect(refreshes).toEqual([200]);
    await stillSignedIn(two);
    await ctx.close();
  });

  it('an invalid magic link says so and offers the sign-in forms', async () => {
    const page = await s.anonymousPage();
    const ctx = page.context();
    await page.goto('/#/login?token=not-a-real-token');
    await page.getByText('This sign-in link did not work').waitFor();
    await page.getByText('invalid, expired or already used').waitFor();
    await ctx.close();
  });
});
