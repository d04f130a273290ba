// Rhizome's authorization server driven the way a remote MCP client and its user drive it:
// register, authorize (sign in by emailed link, consent), exchange the code with the PKCE
// verifier, call /mcp with the bearer token, rotate the refresh token; a native app's own
// redirect scheme; and the token endpoint's refusals, each an OAuth error that changes nothing.
import { describe, expect, it } from 'vitest';
import { handleOf, mailedLink, pkce } from './oauth-browser.js';
import { expectOAuthError, ORIGIN, useOAuthFixture } from './oauth-fixture.js';

const f = useOAuthFixture();

describe('discovery', () => {
  it('publishes RFC 8414 metadata and names itself in the RFC 9728 document', async () => {
    const as = await (await f.t.app.request(`${ORIGIN}/.well-known/oauth-authorization-server`)).json();
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
    const prm = await (await f.t.app.request(`${ORIGIN}/.well-known/oauth-protected-resource`)).json();
    expect(prm.authorization_servers).toEqual([ORIGIN]);
  });
});

describe('authorization code with PKCE', () => {
  it('register → sign in by email → consent → token → /mcp, then refresh with rotation', async () => {
    const { clientId, verifier, code } = await f.approvedCode();
    const res = await f.exchange(clientId, code, verifier);
    const tokens = await res.json();
    expect(res.status, JSON.stringify(tokens)).toBe(200);
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const listed = await f.mcpTools(tokens.access_token);
    expect(listed.status).toBe(200);
    expect((await listed.json()).result.tools.map((x: { name: string }) => x.name)).toContain('search_nodes');
    // The same bearer works on the REST API, as the tenant that signed in.
    expect((await f.t.req('GET', '/api/v1/nodes', undefined, `Bearer ${tokens.access_token}`)).status).toBe(200);

    const rotated = await f.postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token });
    const next = await rotated.json();
    expect(rotated.status).toBe(200);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    // Presenting the rotated-out token again is reuse: the whole session ends.
    await expectOAuthError(await f.postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token }), 400, 'invalid_grant');
    expect((await f.mcpTools(next.access_token)).status).toBe(401);
  });

  it('a refresh token rotates only for the client it was issued to', async () => {
    const { clientId, verifier, code } = await f.approvedCode();
    const tokens = await (await f.exchange(clientId, code, verifier)).json();
    const other = await f.register(['https://other.example/cb'], 'Other');
    await expectOAuthError(await f.postForm('/oauth/token', { grant_type: 'refresh_token', client_id: other, refresh_token: tokens.refresh_token }), 400, 'invalid_grant');
    // Nothing was used up: the rightful client still rotates it.
    expect((await f.postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token })).status).toBe(200);
    // A session from Rhizome's own sign-in is not an OAuth client's to rotate.
    await f.t.req('POST', '/api/v1/auth/magic-link', { email: 'ada@example.com' }, null);
    const token = decodeURIComponent(/#\/login\?token=([^\s&]+)/.exec(f.t.log.lines.join(''))![1]);
    const own = await (await f.t.req('POST', '/api/v1/auth/magic-link/verify', { token }, null)).json();
    await expectOAuthError(await f.postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: own.refresh_token }), 400, 'invalid_grant');
  });

  it('accepts any port on a registered loopback IP redirect (RFC 8252)', async () => {
    const id = await f.register(['http://127.0.0.1/callback']);
    const { verifier, challenge } = pkce();
    const page = await f.browser.get(f.authorizeUrl(id, challenge, { redirect_uri: 'http://127.0.0.1:50123/callback' }));
    expect(page.status).toBe(200);
    const bad = await f.browser.get(f.authorizeUrl(id, challenge, { redirect_uri: 'http://127.0.0.1:50123/other' }));
    expect(bad.status).toBe(400);
    expect(verifier).toBeTruthy();
  });
});

describe('other ways through', () => {
  it('the code from the email, pasted on the page, signs in the same way', async () => {
    const id = await f.register();
    const { verifier, challenge } = pkce();
    const request = handleOf(await (await f.browser.get(f.authorizeUrl(id, challenge))).text());
    await f.browser.post('/oauth/authorize/email', { request, email: 'ada@example.com' });
    const token = new URL(mailedLink(f.t.log.lines)).searchParams.get('token')!;
    expect(f.t.log.lines.join('')).toContain(`paste this code on the sign-in page: ${token}`);
    const wrong = await f.browser.post('/oauth/authorize/signin', { request, token: 'not-the-code' });
    expect(wrong.status).toBe(401);
    const pasted = await f.browser.post('/oauth/authorize/signin', { request, token: ` ${token} ` });
    expect(pasted.status).toBe(303);
    expect(await (await f.browser.get(pasted.headers.get('location')!)).text()).toContain('ada@example.com');
    const done = await f.browser.post('/oauth/authorize/decision', { request, decision: 'approve' });
    const code = new URL(done.headers.get('location')!).searchParams.get('code')!;
    expect((await f.exchange(id, code, verifier)).status).toBe(200);
    // Decided once: a second decision is refused.
    expect((await f.browser.post('/oauth/authorize/decision', { request, decision: 'approve' })).status).toBe(400);
  });

  it('revocation (RFC 7009) ends the session at once', async () => {
    const { clientId, verifier, code } = await f.approvedCode();
    const tokens = await (await f.exchange(clientId, code, verifier)).json();
    const res = await f.postForm('/oauth/revoke', { token: tokens.refresh_token, client_id: clientId });
    expect(res.status).toBe(200);
    expect((await f.mcpTools(tokens.access_token)).status).toBe(401);
    await expectOAuthError(await f.postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token }), 400, 'invalid_grant');
    // Unknown tokens: 200 and nothing to do; a missing token is a request error.
    expect((await f.postForm('/oauth/revoke', { token: 'unknown' })).status).toBe(200);
    await expectOAuthError(await f.postForm('/oauth/revoke', {}), 400, 'invalid_request');
  });
});

describe('native apps', () => {
  it("registers Cursor's three redirect URIs and returns to its own scheme after consent", async () => {
    const cursor = 'cursor://anysphere.cursor-mcp/oauth/callback';
    const res = await f.postJson('/oauth/register', { client_name: 'Cursor', redirect_uris: [cursor, 'https://www.cursor.com/agents/mcp/oauth/callback', 'http://localhost:8787/callback'], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(201);
    const id = (await res.json()).client_id;
    const { verifier, challenge } = pkce();
    const page = await f.browser.get(f.authorizeUrl(id, challenge, { redirect_uri: cursor }));
    const request = handleOf(await page.text());
    await f.browser.post('/oauth/authorize/email', { request, email: 'ada@example.com' });
    const consent = await f.browser.get((await f.browser.get(mailedLink(f.t.log.lines))).headers.get('location')!);
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self' cursor:");
    expect(await consent.text()).toContain('cursor://anysphere.cursor-mcp');
    const done = await f.browser.post('/oauth/authorize/decision', { request, decision: 'approve' });
    const back = new URL(done.headers.get('location')!);
    expect(back.protocol + back.host + back.pathname).toBe('cursor:anysphere.cursor-mcp/oauth/callback');
    expect((await f.exchange(id, back.searchParams.get('code')!, verifier, { redirect_uri: cursor })).status).toBe(200);
  });
});

describe('token endpoint refusals change nothing', () => {
  it('wrong verifier: invalid_grant, and the right one still works', async () => {
    const { clientId, verifier, code } = await f.approvedCode();
    await expectOAuthError(await f.exchange(clientId, code, pkce().verifier), 400, 'invalid_grant');
    expect(await f.count('refresh_tokens')).toBe(0);
    expect((await f.exchange(clientId, code, verifier)).status).toBe(200);
  });

  it('reused code: invalid_grant, and the session the code became is revoked', async () => {
    const { clientId, verifier, code } = await f.approvedCode();
    const first = await (await f.exchange(clientId, code, verifier)).json();
    expect((await f.mcpTools(first.access_token)).status).toBe(200);
    await expectOAuthError(await f.exchange(clientId, code, verifier), 400, 'invalid_grant');
    expect((await f.mcpTools(first.access_token)).status).toBe(401);
    expect(await f.count('refresh_tokens')).toBe(1);
  });

  it('expired code (codes live 60 s)', async () => {
    const { clientId, verifier, code } = await f.approvedCode();
    f.t.clock.advance(61_000);
    await expectOAuthError(await f.exchange(clientId, code, verifier), 400, 'invalid_grant');
    expect(await f.count('refresh_tokens')).toBe(0);
  });

  it('redirect_uri, client, resource, grant type and body format must fit', async () => {
    const { clientId, verifier, code } = await f.approvedCode();
    await expectOAuthError(await f.exchange(clientId, code, verifier, { redirect_uri: 'http://127.0.0.1:33418/elsewhere' }), 400, 'invalid_grant');
    const other = await f.register();
    await expectOAuthError(await f.exchange(other, code, verifier), 400, 'invalid_grant');
    await expectOAuthError(await f.exchange('rzc_unknown', code, verifier), 401, 'invalid_client');
    await expectOAuthError(await f.exchange(clientId, code, verifier, { resource: 'https://evil.example/mcp' }), 400, 'invalid_target');
    await expectOAuthError(await f.exchange(clientId, code, verifier, { grant_type: 'password' }), 400, 'unsupported_grant_type');
    await expectOAuthError(await f.exchange(clientId, code, 'short'), 400, 'invalid_request');
    await expectOAuthError(await f.postJson('/oauth/token', { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier }), 400, 'invalid_request');
    await expectOAuthError(await f.postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'nope' }), 400, 'invalid_grant');
    expect(await f.count('refresh_tokens')).toBe(0);
    expect((await f.exchange(clientId, code, verifier)).status).toBe(200);
  });
});

