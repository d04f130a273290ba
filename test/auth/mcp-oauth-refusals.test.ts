// The authorization server's refusals outside the token endpoint: bad authorization
// requests (an error page when there is nobody safe to redirect to, else the OAuth error
// back at the client), denied consent, browser binding, the pages' own protections, bad
// registrations, rate limits and cross-origin use. Each changes nothing.
import { describe, expect, it } from 'vitest';
import { authorizeByEmail, handleOf, mailedLink, OAuthBrowser, pkce } from './oauth-browser.js';
import { expectOAuthError, ORIGIN, REDIRECT, useOAuthFixture } from './oauth-fixture.js';

const f = useOAuthFixture();

describe('authorization endpoint refusals', () => {
  it('unregistered client or unregistered redirect: an error page, never a redirect', async () => {
    const { challenge } = pkce();
    for (const url of [f.authorizeUrl('rzc_nobody', challenge), f.authorizeUrl(await f.register(), challenge, { redirect_uri: 'https://evil.example/cb' })]) {
      const res = await f.browser.get(url);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
    }
    expect(await f.count('oauth_requests')).toBe(0);
  });

  it('plain PKCE, no PKCE, foreign resource, wrong response_type: redirected with the OAuth error and state', async () => {
    const id = await f.register();
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
      const res = await f.browser.get(f.authorizeUrl(id, challenge, extra));
      expect(res.status, JSON.stringify(extra)).toBe(302);
      const to = new URL(res.headers.get('location')!);
      expect(to.origin + to.pathname).toBe(REDIRECT);
      expect(to.searchParams.get('error')).toBe(error);
      expect(to.searchParams.get('state')).toBe('st-123');
    }
    expect(await f.count('oauth_requests')).toBe(0);
    // The same resource written differently is the same resource.
    expect((await f.browser.get(f.authorizeUrl(id, challenge, { resource: 'HTTP://127.0.0.1:7777/mcp/' }))).status).toBe(200);
  });

  it('denied consent: error=access_denied, no code, no session', async () => {
    const id = await f.register();
    const back = await authorizeByEmail(f.browser, f.authorizeUrl(id, pkce().challenge), 'ada@example.com', f.t.log.lines, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('code')).toBeNull();
    expect(f.t.log.lines.join('')).toContain('ada@example.com denied access for the application "Test Agent"');
    expect(await f.count('oauth_codes')).toBe(0);
    expect(await f.count('refresh_tokens')).toBe(0);
  });

  it('the mailed link works only in the f.browser that started, and is not burnt elsewhere', async () => {
    const id = await f.register();
    const page = await f.browser.get(f.authorizeUrl(id, pkce().challenge));
    const request = handleOf(await page.text());
    await f.browser.post('/oauth/authorize/email', { request, email: 'ada@example.com' });
    const link = mailedLink(f.t.log.lines);
    const stranger = new OAuthBrowser((url, init) => Promise.resolve(f.t.app.request(url, init)), ORIGIN);
    expect((await stranger.get(link)).status).toBe(403);
    expect((await f.browser.get(link)).status).toBe(303);
  });

  it('pages: no script, framing refused, cross-site posts refused, unknown emails get the same page', async () => {
    const id = await f.register();
    const page = await f.browser.get(f.authorizeUrl(id, pkce().challenge));
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    const html = await page.text();
    expect(html).not.toMatch(/<script/i);
    const request = handleOf(html);
    const cross = await f.t.app.request(`${ORIGIN}/oauth/authorize/email`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' }, body: `request=${request}&email=ada%40example.com` });
    expect(cross.status).toBe(403);
    const known = await (await f.browser.post('/oauth/authorize/email', { request, email: 'ada@example.com' })).text();
    const unknown = await (await f.browser.post('/oauth/authorize/email', { request, email: 'nobody@example.com' })).text();
    expect(unknown.replace(/nonce="[^"]+"/g, '')).toBe(known.replace(/nonce="[^"]+"/g, ''));
    expect(f.t.log.lines.join('')).not.toContain('mail to nobody@example.com');
    // Approving without signing in is refused.
    expect((await f.browser.post('/oauth/authorize/decision', { request, decision: 'approve' })).status).toBe(401);
    expect(await f.count('oauth_codes')).toBe(0);
  });
});

describe('limits and cross-origin use', () => {
  it('opening authorization pages is rate-limited per address (each stores a pending request)', async () => {
    const id = await f.register();
    const url = f.authorizeUrl(id, pkce().challenge);
    for (let i = 0; i < 30; i++) expect((await f.browser.get(url)).status).toBe(200);
    const res = await f.browser.get(url);
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(await f.count('oauth_requests')).toBe(30);
  });

  it('discovery, registration and token endpoints answer a f.browser-based client; the pages do not', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/oauth/token', '/oauth/register']) {
      const pre = await f.t.app.request(`${ORIGIN}${path}`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:6274', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });
      expect(pre.status, path).toBe(204);
      expect(pre.headers.get('Access-Control-Allow-Origin'), path).toBe('*');
      expect(pre.headers.get('Access-Control-Allow-Credentials')).toBeNull();
    }
    const page = await f.t.app.request(`${ORIGIN}/oauth/authorize/email`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:6274', 'Access-Control-Request-Method': 'POST' } });
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
    for (const [body, error] of cases) await expectOAuthError(await f.postJson('/oauth/register', body), 400, error);
    expect(await f.count('oauth_clients')).toBe(0);
  });

  it('is rate-limited per address', async () => {
    let last: Response | undefined;
    for (let i = 0; i < 21; i++) last = await f.postJson('/oauth/register', { redirect_uris: [REDIRECT] });
    const body = await expectOAuthError(last!, 429, 'slow_down');
    expect(body.error_description).toMatch(/retry/);
    expect(last!.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(await f.count('oauth_clients')).toBe(20);
  });
});
