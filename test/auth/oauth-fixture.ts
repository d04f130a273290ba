// One in-process Rhizome per test with a user, a cookie-keeping browser, and the requests a
// remote MCP client makes to the authorization server.
import { raw } from '../helpers/raw.js';
import { afterEach, beforeEach, expect } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { authorizeByEmail, OAuthBrowser, pkce } from './oauth-browser.js';

export const ORIGIN = 'http://127.0.0.1:7777';
export const RESOURCE = `${ORIGIN}/mcp`;
export const REDIRECT = 'http://127.0.0.1:33418/callback';

export class OAuthFixture {
  t!: TestApp;
  browser!: OAuthBrowser;

  async count(table: string): Promise<number> {
    return (await raw(this.t.s.db).prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  }
  postJson(path: string, body: unknown) {
    return this.t.app.request(`${ORIGIN}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  }
  postForm(path: string, fields: Record<string, string>) {
    return this.t.app.request(`${ORIGIN}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  }
  async register(redirectUris = [REDIRECT], name = 'Test Agent'): Promise<string> {
    const res = await this.postJson('/oauth/register', { redirect_uris: redirectUris, client_name: name, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: 'none' });
    return body.client_id;
  }
  authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}) {
    const q = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'st-123', resource: RESOURCE, ...extra });
    return `/oauth/authorize?${q}`;
  }
  /** Registered client, approved consent: the code and the verifier that goes with it. */
  async approvedCode(clientId?: string) {
    const id = clientId ?? (await this.register());
    const { verifier, challenge } = pkce();
    const back = await authorizeByEmail(this.browser, this.authorizeUrl(id, challenge), 'ada@example.com', this.t.log.lines);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('iss')).toBe(ORIGIN);
    return { clientId: id, verifier, code: back.searchParams.get('code')! };
  }
  exchange(clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) {
    return this.postForm('/oauth/token', { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT, resource: RESOURCE, ...extra });
  }
  mcpTools(bearer: string) {
    return this.t.app.request(`${ORIGIN}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
  }
}

/** A fresh fixture for every test of the file (user ada@example.com in tenant alpha). */
export function useOAuthFixture(): OAuthFixture {
  const f = new OAuthFixture();
  beforeEach(async () => {
    f.t = await makeTestApp();
    await f.t.s.auth.addUser('ada@example.com', 'alpha');
    f.browser = new OAuthBrowser((url, init) => Promise.resolve(f.t.app.request(url, init)), ORIGIN);
  });
  afterEach(() => f.t.close());
  return f;
}

export async function expectOAuthError(res: Response, status: number, error: string) {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  expect(res.headers.get('Cache-Control')).toBe('no-store');
  return body;
}
