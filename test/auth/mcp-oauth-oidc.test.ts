// Consent for a remote MCP client with the configured identity provider instead of an
// emailed link: the authorization page's "Sign in with ..." goes through a real OpenID
// provider (node-oidc-provider) and IdentitySignIn, then back to the consent page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_ALLOWED } from '../../src/services/auth/identity-sign-in.js';
import { Browser } from './browse.js';
import { handleOf, OAuthBrowser, pkce } from './oauth-browser.js';
import { freePort, startOp, type TestOp } from './op.js';
import { startRhizome, type TestRhizome } from './rhizome.js';

const REDIRECT = 'http://127.0.0.1:45772/cb';
let op: TestOp;
let rz: TestRhizome;

beforeAll(async () => {
  const port = await freePort();
  op = await startOp({ redirectUris: [`http://127.0.0.1:${port}/api/v1/auth/oidc/test-op/callback`] });
  rz = await startRhizome({ port, env: { RHIZOME_OIDC_ISSUER: op.issuer, RHIZOME_OIDC_CLIENT_ID: op.clientId, RHIZOME_OIDC_CLIENT_SECRET: op.clientSecret, RHIZOME_OIDC_NAME: 'Test OP' } });
  await rz.s.tenants.create('home');
  await rz.s.auth.addUser('alice@example.org', 'home');
}, 60_000);
afterAll(async () => {
  await rz?.stop();
  await op?.stop();
});

/** Authorization page → "Sign in with Test OP" → the provider → back to Rhizome's pages. */
async function throughProvider(login: string) {
  const reg = await fetch(`${rz.url}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'Agent' }) });
  const clientId = (await reg.json()).client_id as string;
  const { verifier, challenge } = pkce();
  const b = new OAuthBrowser(fetch, rz.url);
  const q = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'oidc-st', resource: `${rz.url}/mcp` });
  const page = await (await b.get(`/oauth/authorize?${q}`)).text();
  const link = /href="(\/oauth\/authorize\/provider\/test-op\?request=[^"]+)"/.exec(page)?.[1];
  expect(link, page).toBeTruthy();
  const toOp = await b.get(link!.replace(/&amp;/g, '&'));
  expect(toOp.status).toBe(302);
  const callback = await new Browser().run(toOp.headers.get('location')!, op.issuer, login);
  const handoff = await b.get(callback);
  expect(handoff.status).toBe(302);
  const landing = await b.get(handoff.headers.get('location')!);
  return { b, clientId, verifier, landing };
}

describe('consent through the identity provider', () => {
  it('a known user signs in at the provider, approves, and the client gets working tokens', async () => {
    const { b, clientId, verifier, landing } = await throughProvider('alice');
    expect(landing.status).toBe(303);
    const consent = await (await b.get(landing.headers.get('location')!)).text();
    expect(consent).toContain('alice@example.org');
    const done = await b.post('/oauth/authorize/decision', { request: handleOf(consent), decision: 'approve' });
    const back = new URL(done.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('oidc-st');
    const res = await fetch(`${rz.url}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT }),
    });
    const tokens = await res.json();
    expect(res.status, JSON.stringify(tokens)).toBe(200);
    const mcp = await fetch(`${rz.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens.access_token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(200);
  }, 30_000);

  it('an unknown user is told why, on the sign-in page, and nothing is issued', async () => {
    const before = rz.sessions();
    const { landing } = await throughProvider('mallory');
    expect(landing.status).toBe(401);
    const html = await landing.text();
    expect(html).toContain(NOT_ALLOWED.slice(0, 40));
    expect(html).not.toContain('Approve');
    expect(rz.sessions()).toBe(before);
  }, 30_000);
});
