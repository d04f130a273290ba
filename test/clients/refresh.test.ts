// Login sessions through the typed client: refresh before expiry, refresh after a 401,
// one refresh for concurrent calls, sharing a rotated token between processes, and the
// problem+json → RhizomeApiError mapping. In-process: the client's fetch is app.request
// and both sides read the same manual clock.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RhizomeClient } from '../../src/client/client.js';
import { RhizomeApiError, RhizomeAuthMissingError } from '../../src/client/errors.js';
import { SessionStore } from '../../src/client/session.js';
import { loadConfig } from '../../src/config.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const API = 'http://127.0.0.1:7849';

describe('client login sessions', () => {
  let t: TestApp;
  let configDir: string;
  let refreshCalls: number;
  let config: ReturnType<typeof loadConfig>;
  const fetchVia = (app: TestApp['app']) => async (input: string, init?: RequestInit) => {
    if (input.endsWith('/api/v1/auth/refresh')) refreshCalls++;
    return app.request(input, init);
  };
  const makeClient = (now = () => t.clock.now()) => RhizomeClient.fromConfig(config, { fetch: fetchVia(t.app), now });

  beforeEach(async () => {
    t = await makeTestApp();
    refreshCalls = 0;
    configDir = mkdtempSync(join(tmpdir(), 'rhizome-session-'));
    // An empty data folder: no local credentials, so the stored session is what authenticates.
    config = loadConfig({ RHIZOME_API_URL: API, RHIZOME_CONFIG_DIR: configDir, RHIZOME_DATA_DIR: mkdtempSync(join(tmpdir(), 'rhizome-empty-')) });
    await t.s.auth.addUser('ada@example.com', 'alpha');
    const anon = makeClient();
    await anon.requestMagicLink('ada@example.com');
    const token = /paste this token into `rhizome login`: (\S+)/.exec(t.log.lines.join('\n'))![1];
    await anon.login(token, 'ada@example.com');
  });
  afterEach(() => t.close());

  const stored = () => new SessionStore(configDir).get(API)!;

  it('stores the session 0600 and uses it as a bearer token', async () => {
    expect(statSync(join(configDir, 'session.json')).mode & 0o777).toBe(0o600);
    const c = makeClient();
    expect(c.auth.kind).toBe('session');
    expect(Array.isArray(await c.apiKeys())).toBe(true);
    expect(refreshCalls).toBe(0);
  });

  it('refreshes before the access token expires and stores the rotated refresh token', async () => {
    const before = stored();
    const c = makeClient();
    t.clock.advance(16 * 60 * 1000); // past the 15-minute access token
    expect((await c.apiKeys()).length).toBeGreaterThan(0);
    expect(refreshCalls).toBe(1);
    const after = stored();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.access_expires_at).toBe(t.clock.now() + 900_000);
    expect(statSync(join(configDir, 'session.json')).mode & 0o777).toBe(0o600);
    // The old refresh token is dead: presenting it again is reuse.
    const reuse = await t.req('POST', '/api/v1/auth/refresh', { refresh_token: before.refresh_token }, null);
    expect(reuse.status).toBe(401);
  });

  it('refreshes and retries once when the server answers 401', async () => {
    const frozen = t.clock.now(); // the client believes its token is still fresh
    const c = makeClient(() => frozen);
    t.clock.advance(20 * 60 * 1000);
    expect(Array.isArray(await c.apiKeys())).toBe(true);
    expect(refreshCalls).toBe(1);
  });

  it('concurrent calls after expiry share one refresh (no reuse detection)', async () => {
    const c = makeClient();
    t.clock.advance(16 * 60 * 1000);
    const results = await Promise.all(Array.from({ length: 6 }, () => c.apiKeys()));
    expect(results.every((r) => Array.isArray(r))).toBe(true);
    expect(refreshCalls).toBe(1);
    t.clock.advance(16 * 60 * 1000);
    expect(Array.isArray(await c.apiKeys())).toBe(true); // the family is still alive
    expect(refreshCalls).toBe(2);
  });

  it('a second process adopts the token another process already rotated', async () => {
    const a = makeClient();
    const b = makeClient();
    t.clock.advance(16 * 60 * 1000);
    await a.apiKeys();
    await b.apiKeys(); // b holds the old refresh token in memory; it must read the file, not reuse it
    expect(refreshCalls).toBe(1);
    t.clock.advance(16 * 60 * 1000);
    await b.apiKeys();
    await a.apiKeys();
    expect(refreshCalls).toBe(2);
  });

  it('an ended session says to log in again', async () => {
    const c = makeClient();
    t.clock.advance(31 * 24 * 3600 * 1000);
    const err = await c.apiKeys().catch((e) => e);
    expect(err).toBeInstanceOf(RhizomeApiError);
    expect(err.status).toBe(401);
    expect(err.detail).toMatch(/rhizome login/);
  });

  it('turns problem+json into RhizomeApiError with status, code, detail and field errors', async () => {
    const c = makeClient();
    const err = (await c.createApiKey('').catch((e) => e)) as RhizomeApiError;
    expect(err).toBeInstanceOf(RhizomeApiError);
    expect(err.status).toBe(400);
    expect(err.code).toBe('validation_failed');
    expect(err.errors[0].path).toBe('name');
    const missing = (await c.revokeApiKey('key_nope').catch((e) => e)) as RhizomeApiError;
    expect([missing.status, missing.code]).toEqual([404, 'not_found']);
  });

  it('logout forgets the session; with no credentials the client says how to get some', async () => {
    expect(makeClient().logout()).toBe(true);
    const c = makeClient();
    expect(c.auth.kind).toBe('none');
    await expect(c.apiKeys()).rejects.toBeInstanceOf(RhizomeAuthMissingError);
  });

  it('RHIZOME_TOKEN (an API key) wins over the session', async () => {
    const withToken = RhizomeClient.fromConfig({ ...config, clientToken: t.key }, { fetch: fetchVia(t.app) });
    expect(withToken.auth.kind).toBe('api_key');
    expect((await withToken.apiKeys()).length).toBe(1);
  });
});
