import { raw } from '../helpers/raw.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => (t = await makeTestApp()));
afterEach(() => t.close());

async function login(email = 'ada@example.com') {
  await t.s.auth.addUser(email, 'alpha');
  expect((await t.req('POST', '/api/v1/auth/magic-link', { email }, null)).status).toBe(202);
  const line = t.log.lines.find((l) => l.includes(`mail to ${email}`) || l.includes('token=')) ?? '';
  const all = t.log.lines.join('');
  const token = decodeURIComponent(/token=([^\s&]+)/.exec(all)![1]);
  expect(line).toBeTruthy();
  const res = await t.req('POST', '/api/v1/auth/magic-link/verify', { token }, null);
  expect(res.status).toBe(200);
  return { token, pair: await res.json() };
}

describe('API keys', () => {
  it('authenticates a valid key and records last use', async () => {
    const res = await t.req('GET', '/api/v1/auth/api-keys');
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toHaveLength(1);
    expect(Object.keys(data[0]).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name']);
    expect(data[0].last_used_at).not.toBeNull();
    expect(JSON.stringify(data)).not.toContain(t.key.split('.')[1]);
  });

  it.each([
    ['no header', null],
    ['unknown scheme', 'Basic Zm9vOmJhcg=='],
    ['malformed header', 'ApiKey'],
    ['key without secret', 'ApiKey key_abc'],
    ['unknown key id', 'ApiKey key_nope.secret'],
  ])('rejects %s with 401 and WWW-Authenticate', async (_name, auth) => {
    const res = await t.req('GET', '/api/v1/auth/api-keys', undefined, auth);
    await expectProblem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toMatch(/Bearer/);
  });

  it('rejects a right id with a wrong secret', async () => {
    const [id, secret] = t.key.split('.');
    const wrong = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
    await expectProblem(await t.req('GET', '/api/v1/auth/api-keys', undefined, `ApiKey ${id}.${wrong}`), 401, 'unauthorized');
    await expectProblem(await t.req('GET', '/api/v1/auth/api-keys', undefined, `ApiKey ${id}.x`), 401, 'unauthorized');
  });

  it('shows the raw key only on creation; a revoked key fails on the very next request', async () => {
    const res = await t.req('POST', '/api/v1/auth/api-keys', { name: 'laptop' });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created.key).toBe(`${created.id}.${created.key.split('.')[1]}`);
    const auth = `ApiKey ${created.key}`;
    expect((await t.req('GET', '/api/v1/auth/api-keys', undefined, auth)).status).toBe(200);
    const list = await (await t.req('GET', '/api/v1/auth/api-keys')).json();
    expect(list.data.map((k: { name: string }) => k.name)).toEqual(['default', 'laptop']);
    expect(JSON.stringify(list)).not.toContain(created.key.split('.')[1]);
    expect((await t.req('DELETE', `/api/v1/auth/api-keys/${created.id}`)).status).toBe(204);
    await expectProblem(await t.req('GET', '/api/v1/auth/api-keys', undefined, auth), 401, 'unauthorized');
    await expectProblem(await t.req('DELETE', `/api/v1/auth/api-keys/${created.id}`), 404, 'not_found');
  });

  it('records last use to the minute without a write on every request', async () => {
    const lastUsed = async () => (await (await t.req('GET', '/api/v1/auth/api-keys')).json()).data[0].last_used_at;
    const first = await lastUsed();
    t.clock.advance(30_000);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(31_000);
    expect(Date.parse(await lastUsed())).toBe(Date.parse(first) + 61_000);
  });

  it('stores only an HMAC of the secret', async () => {
    const row = await raw(t.s.db).prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    expect(JSON.stringify(row)).not.toContain(t.key.split('.')[1]);
    expect((row.secret_hmac as Buffer).length).toBe(32);
  });

  it('validates the create body', async () => {
    await expectProblem(await t.req('POST', '/api/v1/auth/api-keys', {}), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/auth/api-keys', { name: '' }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/auth/api-keys', { name: 'x', admin: true }), 400, 'validation_failed');
  });

  it('another tenant cannot see or revoke my keys', async () => {
    const b = await t.tenant('beta');
    const mine = (await (await t.req('GET', '/api/v1/auth/api-keys')).json()).data[0];
    const theirs = await (await t.req('GET', '/api/v1/auth/api-keys', undefined, b.auth)).json();
    expect(theirs.data.map((k: { id: string }) => k.id)).not.toContain(mine.id);
    await expectProblem(await t.req('DELETE', `/api/v1/auth/api-keys/${mine.id}`, undefined, b.auth), 404, 'not_found');
    expect((await t.req('GET', '/api/v1/auth/api-keys')).status).toBe(200);
  });
});

describe('magic link and bearer tokens', () => {
  it('answers 202 for unknown emails too, and sends nothing', async () => {
    expect((await t.req('POST', '/api/v1/auth/magic-link', { email: 'nobody@example.com' }, null)).status).toBe(202);
    expect(t.log.lines.join('')).not.toContain('nobody@example.com');
    await expectProblem(await t.req('POST', '/api/v1/auth/magic-link', { email: 'not-an-email' }, null), 400, 'validation_failed');
  });

  it('logs in once per link; the access token works as Bearer for 15 minutes', async () => {
    const { token, pair } = await login();
    expect(pair).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    const bearer = `Bearer ${pair.access_token}`;
    expect((await t.req('GET', '/api/v1/auth/api-keys', undefined, bearer)).status).toBe(200);
    await expectProblem(await t.req('POST', '/api/v1/auth/magic-link/verify', { token }, null), 401, 'unauthorized');
    t.clock.advance(899_000);
    expect((await t.req('GET', '/api/v1/auth/api-keys', undefined, bearer)).status).toBe(200);
    t.clock.advance(2_000);
    await expectProblem(await t.req('GET', '/api/v1/auth/api-keys', undefined, bearer), 401, 'unauthorized');
  });

  it('an expired magic link fails', async () => {
    await t.s.auth.addUser('late@example.com', 'alpha');
    await t.req('POST', '/api/v1/auth/magic-link', { email: 'late@example.com' }, null);
    const token = decodeURIComponent(/token=([^\s&]+)/.exec(t.log.lines.join(''))![1]);
    t.clock.advance(15 * 60 * 1000 + 1);
    await expectProblem(await t.req('POST', '/api/v1/auth/magic-link/verify', { token }, null), 401, 'unauthorized');
  });

  it('refresh rotates; reusing a dead refresh token revokes the whole family', async () => {
    const { pair } = await login();
    const r1 = await t.req('POST', '/api/v1/auth/refresh', { refresh_token: pair.refresh_token }, null);
    expect(r1.status).toBe(200);
    const p2 = await r1.json();
    expect(p2.refresh_token).not.toBe(pair.refresh_token);
    expect(p2.expires_in).toBe(900);
    // The old one is dead: presenting it is reuse, which kills p2's refresh token too.
    await expectProblem(await t.req('POST', '/api/v1/auth/refresh', { refresh_token: pair.refresh_token }, null), 401, 'unauthorized');
    await expectProblem(await t.req('POST', '/api/v1/auth/refresh', { refresh_token: p2.refresh_token }, null), 401, 'unauthorized');
  });

  it('a refresh token expires after 30 days', async () => {
    const { pair } = await login();
    t.clock.advance(30 * 24 * 3600 * 1000 + 1);
    await expectProblem(await t.req('POST', '/api/v1/auth/refresh', { refresh_token: pair.refresh_token }, null), 401, 'unauthorized');
  });

  it('rejects tampered and foreign-signed tokens', async () => {
    const { pair } = await login();
    const [h, p, s] = pair.access_token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, tid: 'ten_other' })).toString('base64url');
    await expectProblem(await t.req('GET', '/api/v1/auth/api-keys', undefined, `Bearer ${h}.${forged}.${s}`), 401, 'unauthorized');
    await expectProblem(await t.req('GET', '/api/v1/auth/api-keys', undefined, 'Bearer not.a.jwt'), 401, 'unauthorized');
    await expectProblem(await t.req('POST', '/api/v1/auth/refresh', { refresh_token: 'made-up' }, null), 401, 'unauthorized');
  });

  it('a bearer session sees only its own tenant', async () => {
    const b = await t.tenant('beta');
    const n = await (await t.req('POST', '/api/v1/nodes', { title: 'beta only' }, b.auth)).json();
    const { pair } = await login();
    await expectProblem(await t.req('GET', `/api/v1/nodes/${n.id}`, undefined, `Bearer ${pair.access_token}`), 404, 'not_found');
  });
});
