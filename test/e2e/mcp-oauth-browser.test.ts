// The authorization pages in headless Chromium against a real `rhizome serve`: the browser
// a remote MCP client opens signs in with the mailed link, sees which application asks,
// approves, and lands on the client's loopback listener with a code. Chromium enforces the
// pages' CSP (nonce'd style, form-action reaching the redirect target) and reports any
// violation, which fails the test.
import { createServer, type Server } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startBrowser, startServer, type Browsing, type Server as Rhizome } from '../web/harness.js';

let rz: Rhizome;
let browsing: Browsing;
let listener: Server;
let redirect = '';
let received: Promise<URL>;

beforeAll(async () => {
  rz = await startServer();
  rz.cli('users', 'add', 'ada@example.com', '--tenant', 'default');
  browsing = await startBrowser();
  listener = createServer();
  received = new Promise((resolve) =>
    listener.on('request', (req, res) => {
      resolve(new URL(req.url!, redirect));
      res.end('You can close this window.');
    }),
  );
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  redirect = `http://127.0.0.1:${(listener.address() as { port: number }).port}/callback`;
}, 120_000);
afterAll(async () => {
  await browsing?.close();
  await rz?.stop();
  await new Promise((r) => listener?.close(r));
});

describe('authorization pages in a real browser', () => {
  it('sign in by mailed link, consent, and back to the client with a code that works', async () => {
    const reg = await (await fetch(`${rz.url}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ client_name: 'Desk Agent', redirect_uris: [redirect] }) })).json();
    const verifier = randomBytes(32).toString('base64url');
    const q = new URLSearchParams({ response_type: 'code', client_id: reg.client_id, redirect_uri: redirect, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', state: 'e2e-state', resource: `${rz.url}/mcp` });

    const ctx = await browsing.newContext();
    const page = await ctx.newPage();
    const violations: string[] = [];
    page.on('console', (m) => /Content Security Policy|Refused to/i.test(m.text()) && violations.push(m.text()));
    await page.goto(`${rz.url}/oauth/authorize?${q}`);
    await page.getByText('Desk Agent').first().waitFor();
    // The nonce'd style sheet applied (a blocked one would leave the default grey button).
    expect(await page.getByRole('button', { name: 'Email me a sign-in link' }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(46, 91, 255)');
    await screenshot(page, 'mcp-oauth-sign-in');
    await page.fill('input[name=email]', 'ada@example.com');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText('a sign-in link is on its way').waitFor();

    const links = [...rz.log().matchAll(/(http\S+\/oauth\/authorize\/signin\?\S+)/g)];
    expect(links.length).toBe(1);
    await page.goto(links[0][1]);
    await page.getByText('Connect this application?').waitFor();
    expect(page.url()).not.toContain('token=');
    await page.getByText('ada@example.com').waitFor();
    await screenshot(page, 'mcp-oauth-consent');
    await page.getByRole('button', { name: 'Approve' }).click();
    const back = await received;
    await page.getByText('You can close this window.').waitFor();
    expect(back.searchParams.get('state')).toBe('e2e-state');
    expect(violations).toEqual([]);

    const tokens = await (
      await fetch(`${rz.url}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', client_id: reg.client_id, code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: redirect, resource: `${rz.url}/mcp` }),
      })
    ).json();
    const mcp = await fetch(`${rz.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens.access_token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(200);
    await ctx.close();
  }, 60_000);
});
