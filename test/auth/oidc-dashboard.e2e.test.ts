// The dashboard's "Sign in with …" in headless Chromium: the provider's own login and
// consent pages, back to a signed-in dashboard; sign-out revokes the session and offers the
// provider's logout; an unknown user sees a clear refusal.
import { raw } from '../helpers/raw.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowser, screenshot, type Browsing } from '../web/harness.js';
import { NOT_ALLOWED } from '../../src/services/auth/identity-sign-in.js';
import { freePort, startOp, type TestOp } from './op.js';
import { startRhizome, type TestRhizome } from './rhizome.js';

let op: TestOp;
let rz: TestRhizome;
let browsing: Browsing;

beforeAll(async () => {
  const port = await freePort();
  op = await startOp({ redirectUris: [`http://127.0.0.1:${port}/api/v1/auth/oidc/test-op/callback`], postLogoutRedirectUris: [`http://127.0.0.1:${port}/`] });
  rz = await startRhizome({ port, env: { RHIZOME_OIDC_ISSUER: op.issuer, RHIZOME_OIDC_CLIENT_ID: op.clientId, RHIZOME_OIDC_CLIENT_SECRET: op.clientSecret, RHIZOME_OIDC_NAME: 'Test OP' } });
  await rz.s.tenants.create('home');
  await rz.s.auth.addUser('alice@example.org', 'home');
  browsing = await startBrowser();
}, 120_000);
afterAll(async () => {
  await browsing?.close();
  await rz?.stop();
  await op?.stop();
});

async function throughProvider(page: Page, login: string) {
  await page.goto(`${rz.url}/#/login`);
  await page.getByRole('link', { name: 'Sign in with Test OP' }).click();
  await page.waitForURL(`${op.issuer}/**`);
  await page.fill('input[name=login]', login);
  await page.fill('input[name=password]', 'any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click({ timeout: 10_000 });
  await page.waitForURL(`${rz.url}/**`);
}

const revoked = async () => (await raw(rz.s.db).prepare('SELECT count(*) AS n FROM refresh_tokens WHERE revoked_at IS NOT NULL').get() as { n: number }).n;

describe('dashboard sign-in with an identity provider', () => {
  it('signs in through the provider\'s pages, signs out, and offers the provider\'s logout', async () => {
    const ctx = await browsing.newContext({ baseUrl: rz.url });
    const page = await ctx.newPage();
    await page.goto(`${rz.url}/#/login`);
    await screenshot(page, 'oidc-login');
    await throughProvider(page, 'alice');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // No code or token left in the address bar or the history entry.
    expect(page.url()).not.toMatch(/oidc_code|token/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('rhizome.session') ?? 'null'));
    expect(stored).toMatchObject({ kind: 'bearer' });
    const before = await revoked();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You signed out.').waitFor();
    expect(await revoked()).toBeGreaterThan(before);
    const refresh = await fetch(`${rz.url}/api/v1/auth/refresh`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refresh_token: stored.refresh }) });
    expect(refresh.status).toBe(401);
    // RP-initiated logout at the provider, back to the dashboard.
    await page.getByRole('link', { name: 'Also sign out of Test OP' }).click();
    await page.waitForURL(`${op.issuer}/**`);
    await page.locator('button[autofocus], button[type=submit]').first().click();
    await page.waitForURL(`${rz.url}/**`);
    await ctx.close();
  }, 60_000);

  it('tells an unknown user clearly, without a session', async () => {
    const ctx = await browsing.newContext({ baseUrl: rz.url });
    const page = await ctx.newPage();
    await throughProvider(page, 'mallory');
    await page.getByText(NOT_ALLOWED).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('rhizome.session'))).toBeNull();
    await screenshot(page, 'oidc-refused');
    await ctx.close();
  }, 60_000);
});
