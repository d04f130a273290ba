// Rhizome's authorization server driven the way a remote MCP client and its user drive it:
// register, authorize (sign in by emailed link, consent), exchange the code with the PKCE
// verifier, call /mcp with the bearer token, rotate the refresh token. And every refusal:
// each a proper OAuth error (or, with no trustworthy redirect URI, an error page) that
// changes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { authorizeByEmail, handleOf, mailedLink, OAuthBrowser, pkce } from './oauth-browser.js';

const ORIGIN = 'http://127.0.0.1:7777';
const RESOURCE = `${ORIGIN}/mcp`;
const REDIRECT = 'http://127.0.0.1:33418/callback';

let t: TestApp;
let browser: OAuthBrowser;
beforeEach(async () => {
  t = await makeTestApp();
  t.s.auth.addUser('ada@example.com', 'alpha');
  browser = new OAuthBrowser((url, init) => Promise.resolve(t.app.request(url, init)), ORIGIN);
});
afterEach(() => t.close());

const count = (table: string) => (t.s.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const postJson = (path: string, body: unknown) => t.app.request(`${ORIGIN}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const postForm = (path: string, fields: Record<string, string>) =>
  t.app.request(`${ORIGIN}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

async function register(redirectUris = [REDIRECT], name = 'Test Agent'): Promise<string> {
  const res = await postJson('/oauth/register', { redirect_uris: redirectUris, client_name: name, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });
  expect(res.status).toBe(201);
  const body = await res.json();
  expect(body).toMatchObject({ client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: 'none' });
  return body.client_id;
}

function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  const q = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'st-123', resource: RESOURCE, ...extra });
  return `/oauth/authorize?${q}`;
}

async function expectOAuthError(res: Response, status: number, error: string) {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  expect(res.headers.get('Cache-Control')).toBe('no-store');
  return body;
}

/** Registered client, approved consent: the code and the verifier that goes with it. */
async function approvedCode(clientId?: string) {
  const id = clientId ?? (await register());
  const { verifier, challenge } = pkce();
  const back = await authorizeByEmail(browser, authorizeUrl(id, challenge), 'ada@example.com', t.log.lines);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe('st-123');
  expect(back.searchParams.get('iss')).toBe(ORIGIN);
  return { clientId: id, verifier, code: back.searchParams.get('code')! };
}

const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
  postForm('/oauth/token', { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT, resource: RESOURCE, ...extra });

const mcpTools = (bearer: string) =>
  t.app.request(`${ORIGIN}/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

describe('discovery', () => {
  it('publishes RFC 8414 metadata and names itself in the RFC 9728 document', async () => {
    const as = await (await t.app.request(`${ORIGIN}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      token_endpoint_auth_methods_supported: ['none'],
    });
    const prm = await (await t.app.request(`${ORIGIN}/.well-known/oauth-protected-resource`)).json();
    expect(prm.authorization_servers).toEqual([ORIGIN]);
  });
});

describe('authorization code with PKCE', () => {
  it('register → sign in by email → consent → token → /mcp, then refresh with rotation', async () => {
    const { clientId, verifier, code } = await approvedCode();
    const res = await exchange(clientId, code, verifier);
    const tokens = await res.json();
    expect(res.status, JSON.stringify(tokens)).toBe(200);
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const listed = await mcpTools(tokens.access_token);
    expect(listed.status).toBe(200);
    expect((await listed.json()).result.tools.map((x: { name: string }) => x.name)).toContain('search_nodes');
    // The same bearer works on the REST API, as the tenant that signed in.
    expect((await t.req('GET', '/api/v1/nodes', undefined, `Bearer ${tokens.access_token}`)).status).toBe(200);

    const rotated = await postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token });
    const next = await rotated.json();
    expect(rotated.status).toBe(200);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    // Presenting the rotated-out token again is reuse: the whole session ends.
    await expectOAuthError(await postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token }), 400, 'invalid_grant');
    expect((await mcpTools(next.access_token)).status).toBe(401);
  });

  it('a refresh token rotates only for the client it was issued to', async () => {
    const { clientId, verifier, code } = await approvedCode();
    const tokens = await (await exchange(clientId, code, verifier)).json();
    const other = await register(['https://other.example/cb'], 'Other');
    await expectOAuthError(await postForm('/oauth/token', { grant_type: 'refresh_token', client_id: other, refresh_token: tokens.refresh_token }), 400, 'invalid_grant');
    // Nothing was used up: the rightful client still rotates it.
    expect((await postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token })).status).toBe(200);
    // A session from Rhizome's own sign-in is not an OAuth client's to rotate.
    await t.req('POST', '/api/v1/auth/magic-link', { email: 'ada@example.com' }, null);
    const token = decodeURIComponent(/#\/login\?token=([^\s&]+)/.exec(t.log.lines.join(''))![1]);
    const own = await (await t.req('POST', '/api/v1/auth/magic-link/verify', { token }, null)).json();
    await expectOAuthError(await postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: own.refresh_token }), 400, 'invalid_grant');
  });

  it('accepts any port on a registered loopback IP redirect (RFC 8252)', async () => {
    const id = await register(['http://127.0.0.1/callback']);
    const { verifier, challenge } = pkce();
    const page = await browser.get(authorizeUrl(id, challenge, { redirect_uri: 'http://127.0.0.1:50123/callback' }));
    expect(page.status).toBe(200);
    const bad = await browser.get(authorizeUrl(id, challenge, { redirect_uri: 'http://127.0.0.1:50123/other' }));
    expect(bad.status).toBe(400);
    expect(verifier).toBeTruthy();
  });
});

describe('native apps', () => {
  it("registers Cursor's three redirect URIs and returns to its own scheme after consent", async () => {
    const cursor = 'cursor://anysphere.cursor-mcp/oauth/callback';
    const res = await postJson('/oauth/register', { client_name: 'Cursor', redirect_uris: [cursor, 'https://www.cursor.com/agents/mcp/oauth/callback', 'http://localhost:8787/callback'], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(201);
    const id = (await res.json()).client_id;
    const { verifier, challenge } = pkce();
    const page = await browser.get(authorizeUrl(id, challenge, { redirect_uri: cursor }));
    const request = handleOf(await page.text());
    await browser.post('/oauth/authorize/email', { request, email: 'ada@example.com' });
    const consent = await browser.get((await browser.get(mailedLink(t.log.lines))).headers.get('location')!);
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self' cursor:");
    expect(await consent.text()).toContain('cursor://anysphere.cursor-mcp');
    const done = await browser.post('/oauth/authorize/decision', { request, decision: 'approve' });
    const back = new URL(done.headers.get('location')!);
    expect(back.protocol + back.host + back.pathname).toBe('cursor:anysphere.cursor-mcp/oauth/callback');
    expect((await exchange(id, back.searchParams.get('code')!, verifier, { redirect_uri: cursor })).status).toBe(200);
  });
});

describe('token endpoint refusals change nothing', () => {
  it('wrong verifier: invalid_grant, and the right one still works', async () => {
    const { clientId, verifier, code } = await approvedCode();
    await expectOAuthError(await exchange(clientId, code, pkce().verifier), 400, 'invalid_grant');
    expect(count('refresh_tokens')).toBe(0);
    expect((await exchange(clientId, code, verifier)).status).toBe(200);
  });

  it('reused code: invalid_grant, and the session the code became is revoked', async () => {
    const { clientId, verifier, code } = await approvedCode();
    const first = await (await exchange(clientId, code, verifier)).json();
    expect((await mcpTools(first.access_token)).status).toBe(200);
    await expectOAuthError(await exchange(clientId, code, verifier), 400, 'invalid_grant');
    expect((await mcpTools(first.access_token)).status).toBe(401);
    expect(count('refresh_tokens')).toBe(1);
  });

  it('expired code (codes live 60 s)', async () => {
    const { clientId, verifier, code } = await approvedCode();
    t.clock.advance(61_000);
    await expectOAuthError(await exchange(clientId, code, verifier), 400, 'invalid_grant');
    expect(count('refresh_tokens')).toBe(0);
  });

  it('redirect_uri, client, resource, grant type and body format must fit', async () => {
    const { clientId, verifier, code } = await approvedCode();
    await expectOAuthError(await exchange(clientId, code, verifier, { redirect_uri: 'http://127.0.0.1:33418/elsewhere' }), 400, 'invalid_grant');
    const other = await register();
    await expectOAuthError(await exchange(other, code, verifier), 400, 'invalid_grant');
    await expectOAuthError(await exchange('rzc_unknown', code, verifier), 401, 'invalid_client');
    await expectOAuthError(await exchange(clientId, code, verifier, { resource: 'https://evil.example/mcp' }), 400, 'invalid_target');
    await expectOAuthError(await exchange(clientId, code, verifier, { grant_type: 'password' }), 400, 'unsupported_grant_type');
    await expectOAuthError(await exchange(clientId, code, 'short'), 400, 'invalid_request');
    await expectOAuthError(await postJson('/oauth/token', { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier }), 400, 'invalid_request');
    await expectOAuthError(await postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'nope' }), 400, 'invalid_grant');
    expect(count('refresh_tokens')).toBe(0);
    expect((await exchange(clientId, code, verifier)).status).toBe(200);
  });
});

describe('authorization endpoint refusals', () => {
  it('unregistered client or unregistered redirect: an error page, never a redirect', async () => {
    const { challenge } = pkce();
    for (const url of [authorizeUrl('rzc_nobody', challenge), authorizeUrl(await register(), challenge, { redirect_uri: 'https://evil.example/cb' })]) {
      const res = await browser.get(url);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
    }
    expect(count('oauth_requests')).toBe(0);
  });

  it('plain PKCE, no PKCE, foreign resource, wrong response_type: redirected with the OAuth error and state', async () => {
    const id = await register();
    const { challenge } = pkce();
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: '' }, 'invalid_request'],
      [{ resource: 'https://evil.example/mcp' }, 'invalid_target'],
      [{ resource: `${ORIGIN}/mcp-other` }, 'invalid_target'],
      [{ resource: `${ORIGIN}/mcp?x=1` }, 'invalid_target'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
    ];
    for (const [extra, error] of cases) {
      const res = await browser.get(authorizeUrl(id, challenge, extra));
      expect(res.status, JSON.stringify(extra)).toBe(302);
      const to = new URL(res.headers.get('location')!);
      expect(to.origin + to.pathname).toBe(REDIRECT);
      expect(to.searchParams.get('error')).toBe(error);
      expect(to.searchParams.get('state')).toBe('st-123');
    }
    expect(count('oauth_requests')).toBe(0);
    // The same resource written differently is the same resource.
    expect((await browser.get(authorizeUrl(id, challenge, { resource: 'HTTP://127.0.0.1:7777/mcp/' }))).status).toBe(200);
  });

  it('denied consent: error=access_denied, no code, no session', async () => {
    const id = await register();
    const back = await authorizeByEmail(browser, authorizeUrl(id, pkce().challenge), 'ada@example.com', t.log.lines, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('code')).toBeNull();
    expect(t.log.lines.join('')).toContain('ada@example.com denied access for the application "Test Agent"');
    expect(count('oauth_codes')).toBe(0);
    expect(count('refresh_tokens')).toBe(0);
  });

  it('the mailed link works only in the browser that started, and is not burnt elsewhere', async () => {
    const id = await register();
    const page = await browser.get(authorizeUrl(id, pkce().challenge));
    const request = handleOf(await page.text());
    await browser.post('/oauth/authorize/email', { request, email: 'ada@example.com' });
    const link = mailedLink(t.log.lines);
    const stranger = new OAuthBrowser((url, init) => Promise.resolve(t.app.request(url, init)), ORIGIN);
    expect((await stranger.get(link)).status).toBe(403);
    expect((await browser.get(link)).status).toBe(303);
  });

  it('pages: no script, framing refused, cross-site posts refused, unknown emails get the same page', async () => {
    const id = await register();
    const page = await browser.get(authorizeUrl(id, pkce().challenge));
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    const html = await page.text();
    expect(html).not.toMatch(/<script/i);
    const request = handleOf(html);
    const cross = await t.app.request(`${ORIGIN}/oauth/authorize/email`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' }, body: `request=${request}&email=ada%40example.com` });
    expect(cross.status).toBe(403);
    const known = await (await browser.post('/oauth/authorize/email', { request, email: 'ada@example.com' })).text();
    const unknown = await (await browser.post('/oauth/authorize/email', { request, email: 'nobody@example.com' })).text();
    expect(unknown.replace(/nonce="[^"]+"/g, '')).toBe(known.replace(/nonce="[^"]+"/g, ''));
    expect(t.log.lines.join('')).not.toContain('mail to nobody@example.com');
    // Approving without signing in is refused.
    expect((await browser.post('/oauth/authorize/decision', { request, decision: 'approve' })).status).toBe(401);
    expect(count('oauth_codes')).toBe(0);
  });
});

describe('limits and cross-origin use', () => {
  it('opening authorization pages is rate-limited per address (each stores a pending request)', async () => {
    const id = await register();
    const url = authorizeUrl(id, pkce().challenge);
    for (let i = 0; i < 30; i++) expect((await browser.get(url)).status).toBe(200);
    const res = await browser.get(url);
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(count('oauth_requests')).toBe(30);
  });

  it('discovery, registration and token endpoints answer a browser-based client; the pages do not', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/oauth/token', '/oauth/register']) {
      const pre = await t.app.request(`${ORIGIN}${path}`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:6274', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });
      expect(pre.status, path).toBe(204);
      expect(pre.headers.get('Access-Control-Allow-Origin'), path).toBe('*');
      expect(pre.headers.get('Access-Control-Allow-Credentials')).toBeNull();
    }
    const page = await t.app.request(`${ORIGIN}/oauth/authorize/email`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:6274', 'Access-Control-Request-Method': 'POST' } });
    expect(page.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('dynamic client registration refusals', () => {
  it('bad bodies: RFC 7591 errors, nothing stored', async () => {
    const cases: [unknown, string][] = [
      ['not json', 'invalid_client_metadata'],
      [[], 'invalid_client_metadata'],
      [{}, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['data:text/html,hi'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['file:///etc/passwd'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://ok.example/cb', 'http://10.0.0.5/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['not a url'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], grant_types: ['implicit'] }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], response_types: ['token'] }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], client_name: 'x'.repeat(500) }, 'invalid_client_metadata'],
    ];
    for (const [body, error] of cases) await expectOAuthError(await postJson('/oauth/register', body), 400, error);
    expect(count('oauth_clients')).toBe(0);
  });

  it('is rate-limited per address', async () => {
    let last: Response | undefined;
    for (let i = 0; i < 21; i++) last = await postJson('/oauth/register', { redirect_uris: [REDIRECT] });
    const body = await expectOAuthError(last!, 429, 'slow_down');
    expect(body.error_description).toMatch(/retry/);
    expect(last!.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(count('oauth_clients')).toBe(20);
  });
});
