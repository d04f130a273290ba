// Sign-in with a real OpenID provider (node-oidc-provider) through real HTTP redirects:
// the dashboard's code flow, the hand-off exchange, sign-out, RP-initiated logout, the
// device grant, and every refusal (none of which may produce a session).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import type { CustomFetch } from 'openid-client';
import { NOT_ALLOWED, UNVERIFIED } from '../../src/services/auth/identity-sign-in.js';
import { Browser } from './browse.js';
import { freePort, startOp, type TestOp } from './op.js';
import { startRhizome, type TestRhizome } from './rhizome.js';

let op: TestOp;
let rz: TestRhizome;
/** Rewrites the ID token in the provider's token response (a forging provider or a MITM). */
let tamper: ((idToken: string) => Promise<string>) | undefined;

/** How each request to a token endpoint authenticated the client, in order. */
const tokenAuth: ('basic' | 'post' | 'none')[] = [];
const oidcFetch: CustomFetch = async (url, options) => {
  if (url.endsWith('/token')) {
    const headers = new Headers(options.headers as HeadersInit);
    const body = new URLSearchParams(String(options.body ?? ''));
    tokenAuth.push(headers.get('authorization')?.startsWith('Basic ') ? 'basic' : body.has('client_secret') ? 'post' : 'none');
  }
  const res = await fetch(url, options as RequestInit);
  if (!tamper || !url.endsWith('/token') || !res.ok) return res;
  const body = (await res.json()) as { id_token: string };
  body.id_token = await tamper(body.id_token);
  return new Response(JSON.stringify(body), { status: res.status, headers: { 'content-type': 'application/json' } });
};

beforeAll(async () => {
  const port = await freePort();
  const callbacks = ['test-op', 'public', 'by-post'].map((n) => `http://127.0.0.1:${port}/api/v1/auth/oidc/${n}/callback`);
  op = await startOp({ redirectUris: callbacks, postLogoutRedirectUris: [`http://127.0.0.1:${port}/`] });
  rz = await startRhizome({
    port,
    env: {
      RHIZOME_OIDC_ISSUER: op.issuer, RHIZOME_OIDC_CLIENT_ID: op.clientId, RHIZOME_OIDC_CLIENT_SECRET: op.clientSecret, RHIZOME_OIDC_NAME: 'Test OP',
      RHIZOME_OIDC_PROVIDERS: 'public,by_post', RHIZOME_OIDC_PUBLIC_ISSUER: op.issuer, RHIZOME_OIDC_PUBLIC_CLIENT_ID: 'rhizome-public', RHIZOME_OIDC_PUBLIC_NAME: 'Public client',
      // The same client, configured to send its secret in the body.
      RHIZOME_OIDC_BY_POST_ISSUER: op.issuer, RHIZOME_OIDC_BY_POST_CLIENT_ID: op.clientId, RHIZOME_OIDC_BY_POST_CLIENT_SECRET: op.clientSecret, RHIZOME_OIDC_BY_POST_TOKEN_AUTH_METHOD: 'client_secret_post',
    },
    oidcFetch,
  });
  await rz.s.tenants.create('home');
  await rz.s.auth.addUser('alice@example.org', 'home');
  await rz.s.auth.addUser('unverified@example.org', 'home');
}, 60_000);
afterAll(async () => {
  await rz?.stop();
  await op?.stop();
});

const api = (path: string, init: RequestInit = {}) => fetch(`${rz.url}/api/v1${path}`, { redirect: 'manual', ...init });
const post = (path: string, body: unknown) => api(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** Start → provider login and consent → the provider's redirect back to Rhizome (not yet followed). */
async function throughProvider(login: string, query = '', provider = 'test-op'): Promise<string> {
  const start = await api(`/auth/oidc/${provider}/start${query}`);
  expect(start.status).toBe(302);
  return new Browser().run(start.headers.get('location')!, op.issuer, login);
}

/** Follows the callback; returns the dashboard's fragment parameters. */
async function land(callback: string): Promise<URLSearchParams> {
  const res = await fetch(callback, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const to = new URL(res.headers.get('location')!);
  expect(to.origin + to.pathname).toBe(`${rz.url}/`);
  expect(to.search).toBe(''); // nothing in a query string that lands in logs
  expect(to.hash.startsWith('#/login?')).toBe(true);
  return new URLSearchParams(to.hash.slice('#/login?'.length));
}

async function refusedWithoutSession(login: string, expected?: string): Promise<string> {
  const before = rz.sessions();
  const back = await land(await throughProvider(login));
  expect(back.get('oidc_code')).toBeNull();
  const error = back.get('oidc_error')!;
  expect(error).toBeTruthy();
  if (expected) expect(error).toBe(expected);
  expect(rz.sessions()).toBe(before);
  return error;
}

describe('identity-provider sign-in', () => {
  it('lists the provider with what it offers', async () => {
    const res = await api('/auth/oidc/providers');
    expect(await res.json()).toEqual({
      data: [
        { name: 'test-op', label: 'Test OP', start_url: '/api/v1/auth/oidc/test-op/start', device: true, logout: true, available: true },
        { name: 'public', label: 'Public client', start_url: '/api/v1/auth/oidc/public/start', device: true, logout: true, available: true },
        { name: 'by-post', label: 'by_post', start_url: '/api/v1/auth/oidc/by-post/start', device: true, logout: true, available: true },
      ],
    });
  });

  it('signs a known, verified user in: code flow → hand-off code → Rhizome tokens; sign-out revokes the family', async () => {
    const callback = await throughProvider('alice', '?return_to=/search');
    expect(new URL(callback).pathname).toBe('/api/v1/auth/oidc/test-op/callback');
    const back = await land(callback);
    expect(back.get('return_to')).toBe('/search');
    const code = back.get('oidc_code')!;
    const res = await post('/auth/oidc/exchange', { code });
    expect(res.status).toBe(200);
    const pair = (await res.json()) as { access_token: string; refresh_token: string; expires_in: number; provider: string };
    expect(pair).toMatchObject({ token_type: 'Bearer', expires_in: 900, provider: 'test-op' });
    const me = await api('/auth/api-keys', { headers: { Authorization: `Bearer ${pair.access_token}` } });
    expect(me.status).toBe(200);
    // The hand-off code works once.
    expect((await post('/auth/oidc/exchange', { code })).status).toBe(401);
    // Rotation as with magic links; sign-out revokes the whole family.
    const rotated = (await (await post('/auth/refresh', { refresh_token: pair.refresh_token })).json()) as { refresh_token: string };
    expect((await post('/auth/logout', { refresh_token: rotated.refresh_token })).status).toBe(204);
    expect((await post('/auth/refresh', { refresh_token: rotated.refresh_token })).status).toBe(401);
  });

  it('authenticates at the token endpoint as discovery lists first (client_secret_basic here), or as configured', async () => {
    const signIn = async (provider: string) => {
      tokenAuth.length = 0;
      const back = await land(await throughProvider('alice', '', provider));
      expect(back.get('oidc_code')).toBeTruthy();
      return [...tokenAuth];
    };
    expect(await signIn('test-op')).toEqual(['basic']);
    expect(await signIn('by-post')).toEqual(['post']);
  });

  it('signs in through a public client (PKCE, no secret)', async () => {
    const start = await api('/auth/oidc/public/start');
    const auth = new URL(start.headers.get('location')!);
    expect(auth.searchParams.get('client_id')).toBe('rhizome-public');
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    const back = await land(await new Browser().run(auth.href, op.issuer, 'alice'));
    const res = await post('/auth/oidc/exchange', { code: back.get('oidc_code') });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ provider: 'public' });
  });

  it('refuses a wrong state, and never lets a state or a code be replayed', async () => {
    const callback = await throughProvider('alice');
    const before = rz.sessions();
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state-we-sent-0123456789');
    expect((await fetch(forged, { redirect: 'manual' })).status).toBe(400);
    const first = await land(callback);
    expect(first.get('oidc_code')).toBeTruthy();
    // The same answer again: the state is spent.
    const again = await fetch(callback, { redirect: 'manual' });
    expect(again.status).toBe(400);
    // The old code with a fresh, valid state: the provider refuses the spent code (and its PKCE).
    const fresh = await api('/auth/oidc/test-op/start');
    const state = new URL(fresh.headers.get('location')!).searchParams.get('state')!;
    const replay = new URL(callback);
    replay.searchParams.set('state', state);
    const back = await land(replay.href);
    expect(back.get('oidc_error')).toBeTruthy();
    expect(rz.sessions()).toBe(before);
  });

  it('refuses forged ID tokens: wrong key, wrong audience, expired, alg none, wrong nonce', async () => {
    const { privateKey: stranger } = await generateKeyPair('RS256');
    const resign = (key: CryptoKey, change: (c: JWTPayload) => JWTPayload) => async (t: string) => {
      const claims = change(decodeJwt(t));
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: decodeProtectedHeader(t).kid }).sign(key);
    };
    const now = Math.floor(Date.now() / 1000);
    const forgeries: Record<string, (t: string) => Promise<string>> = {
      'wrong key': resign(stranger, (c) => c),
      'wrong audience': resign(op.signingKey, (c) => ({ ...c, aud: 'someone-else' })),
      expired: resign(op.signingKey, (c) => ({ ...c, iat: now - 7200, exp: now - 3600 })),
      'alg none': async (t) => new UnsecuredJWT(decodeJwt(t)).encode(),
      'wrong nonce': resign(op.signingKey, (c) => ({ ...c, nonce: 'another-nonce' })),
    };
    try {
      for (const [what, forge] of Object.entries(forgeries)) {
        tamper = forge;
        const error = await refusedWithoutSession('alice');
        expect(error, what).toMatch(/could not be verified/);
      }
      // The same tamper hook leaving the token alone signs in: the refusals above are the forgeries'.
      tamper = async (t) => t;
      const ok = await land(await throughProvider('alice'));
      expect(ok.get('oidc_code')).toBeTruthy();
    } finally {
      tamper = undefined;
    }
  });

  it('refuses an unverified email and an unknown user, without telling which users exist', async () => {
    await refusedWithoutSession('unverified', UNVERIFIED);
    const unknown = await refusedWithoutSession('stranger', NOT_ALLOWED);
    expect(unknown).not.toMatch(/stranger/);
  });

  it('logs each refusal at info (the default level) with its reason, and no token', async () => {
    const from = rz.log.lines.length;
    await refusedWithoutSession('unverified', UNVERIFIED);
    await refusedWithoutSession('stranger', NOT_ALLOWED);
    const lines = rz.log.lines.slice(from).filter((l) => / INFO {2}sign-in through test-op refused/.test(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/email not verified.*unverified@example\.org/);
    expect(lines[1]).toMatch(/no such user.*stranger@example\.org/);
    for (const l of lines) expect(l).not.toMatch(/eyJ|code=|token/i);
  });

  it('binds a CLI hand-off code to the CLI\'s PKCE verifier', async () => {
    const { createHash } = await import('node:crypto');
    const verifier = 'v'.repeat(50);
    const q = new URLSearchParams({ client: 'cli', redirect_uri: 'http://127.0.0.1:9/callback', state: 'cli-state-0123456789', code_challenge: createHash('sha256').update(verifier).digest('base64url') });
    const res = await fetch(await throughProvider('alice', `?${q}`), { redirect: 'manual' });
    const loopback = new URL(res.headers.get('location')!);
    expect(loopback.origin + loopback.pathname).toBe('http://127.0.0.1:9/callback');
    expect(loopback.searchParams.get('state')).toBe('cli-state-0123456789');
    const code = loopback.searchParams.get('oidc_code')!;
    const before = rz.sessions();
    // Whoever intercepts the code without the verifier gets nothing, and burns the code.
    expect((await post('/auth/oidc/exchange', { code })).status).toBe(401);
    expect((await post('/auth/oidc/exchange', { code, code_verifier: verifier })).status).toBe(401);
    expect(rz.sessions()).toBe(before);
  });

  it('describes every route in the OpenAPI document', async () => {
    const doc = (await (await api('/openapi.json')).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    for (const [path, method] of [
      ['/auth/oidc/providers', 'get'], ['/auth/oidc/{name}/start', 'get'], ['/auth/oidc/{name}/callback', 'get'], ['/auth/oidc/exchange', 'post'],
      ['/auth/oidc/{name}/device', 'post'], ['/auth/oidc/device/poll', 'post'], ['/auth/oidc/{name}/logout', 'get'], ['/auth/logout', 'post'],
    ]) {
      const op = doc.paths[`/api/v1${path}`]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.security).toEqual([]);
    }
  });

  it('rejects unsafe start parameters', async () => {
    expect((await api('/auth/oidc/test-op/start?return_to=//evil.example')).status).toBe(400);
    expect((await api('/auth/oidc/test-op/start?client=cli&redirect_uri=https://evil.example/cb&state=0123456789abcdef0123&code_challenge=' + 'a'.repeat(43))).status).toBe(400);
    expect((await api('/auth/oidc/test-op/start?client=cli&redirect_uri=http://127.0.0.1:9/cb&state=0123456789abcdef0123')).status).toBe(400);
    expect((await api('/auth/oidc/nope/start')).status).toBe(404);
    expect((await post('/auth/oidc/exchange', { code: 'made-up' })).status).toBe(401);
  });

  it('offers RP-initiated logout at the provider', async () => {
    const res = await api('/auth/oidc/test-op/logout');
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin).toBe(op.issuer);
    expect(to.searchParams.get('client_id')).toBe('rhizome');
    expect(to.searchParams.get('post_logout_redirect_uri')).toBe(`${rz.url}/`);
  });

  it('signs in through the device authorization grant', async () => {
    const start = await post('/auth/oidc/test-op/device', {});
    expect(start.status).toBe(200);
    const d = (await start.json()) as { device_id: string; user_code: string; verification_uri_complete: string };
    expect((await post('/auth/oidc/device/poll', { device_id: d.device_id })).status).toBe(202);
    await new Browser().run(d.verification_uri_complete, op.issuer, 'alice');
    const done = await post('/auth/oidc/device/poll', { device_id: d.device_id });
    expect(done.status).toBe(200);
    const pair = (await done.json()) as { access_token: string };
    expect((await api('/auth/api-keys', { headers: { Authorization: `Bearer ${pair.access_token}` } })).status).toBe(200);
    expect((await post('/auth/oidc/device/poll', { device_id: d.device_id })).status).toBe(401);
  });
});
