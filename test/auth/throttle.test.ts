// Guessing and flooding: failed authentications are throttled per client address and per
// key id (429 rate_limited + Retry-After) while valid keys go through untouched; sign-in
// links are limited per email and per address and still answer 202; one warning per burst.
import { afterEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
afterEach(() => t?.close());

const LIMITS = { authFailuresPerAddress: 8, authFailuresPerKey: 4, authWindowS: 1, magicLinksPerEmail: 2, magicLinksPerAddress: 5, magicLinkWindowS: 60, trustProxy: false, tenantBudgetPerMinute: 0 };

/** A request from a given client address (as the Node adapter would report the socket). */
function from(address: string, path: string, headers: Record<string, string>, init: RequestInit = {}) {
  return t.app.request(path, { ...init, headers }, { incoming: { socket: { remoteAddress: address, remotePort: 1, remoteFamily: 'IPv4' } } });
}

const keyId = (key: string) => key.split('.')[0];

describe('failed authentication throttle', () => {
  it('per key id: 429 with Retry-After past the limit; the valid key itself is never slowed', async () => {
    t = await makeTestApp({ config: { limits: LIMITS } });
    const guess = { Authorization: `ApiKey ${keyId(t.key)}.wrongsecret` };
    for (let i = 0; i < LIMITS.authFailuresPerKey; i++) await expectProblem(await from(`10.0.0.${i}`, '/api/v1/nodes', guess), 401, 'unauthorized');
    // Guesses from yet other addresses: throttled because they target the same key id.
    const res = await from('10.0.1.1', '/api/v1/nodes', guess);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await expectProblem(res, 429, 'rate_limited');
    for (let i = 0; i < 20; i++) expect((await from('10.0.1.1', '/api/v1/nodes', { Authorization: `ApiKey ${t.key}` })).status).toBe(200);
    // One warning for the burst, not one per refused request.
    for (let i = 0; i < 5; i++) await from('10.0.1.1', '/api/v1/nodes', guess);
    expect(t.log.lines.filter((l) => l.includes('WARN') && l.includes(`key ${keyId(t.key)}`))).toHaveLength(1);
    // The window passes: a failure is a 401 again.
    await new Promise((r) => setTimeout(r, 1100));
    await expectProblem(await from('10.0.1.1', '/api/v1/nodes', guess), 401, 'unauthorized');
  });

  it('per client address: many different keys from one address, bearer tokens and /health included', async () => {
    t = await makeTestApp({ config: { limits: LIMITS } });
    for (let i = 0; i < LIMITS.authFailuresPerAddress; i++) {
      const h = i % 2 ? { Authorization: `ApiKey key_${i}.x` } : { Authorization: `Bearer not.a.jwt${i}` };
      expect((await from('192.0.2.7', i % 3 ? '/api/v1/nodes' : '/health', h)).status).toBe(401);
    }
    await expectProblem(await from('192.0.2.7', '/api/v1/nodes', { Authorization: 'ApiKey key_new.x' }), 429, 'rate_limited');
    await expectProblem(await from('192.0.2.7', '/health', { Authorization: 'Bearer x' }), 429, 'rate_limited');
    // Another address is not affected, and valid credentials from the throttled one still work.
    await expectProblem(await from('192.0.2.8', '/api/v1/nodes', { Authorization: 'ApiKey key_other.x' }), 401, 'unauthorized');
    expect((await from('192.0.2.7', '/api/v1/nodes', { Authorization: `ApiKey ${t.key}` })).status).toBe(200);
  });

  it('X-Forwarded-For is ignored unless RHIZOME_TRUST_PROXY is set', async () => {
    t = await makeTestApp({ config: { limits: { ...LIMITS, authFailuresPerKey: 0 } } });
    for (let i = 0; i < LIMITS.authFailuresPerAddress; i++) await from('127.0.0.1', '/api/v1/nodes', { Authorization: 'ApiKey a.b', 'X-Forwarded-For': `203.0.113.${i}` });
    expect((await from('127.0.0.1', '/api/v1/nodes', { Authorization: 'ApiKey a.b', 'X-Forwarded-For': '203.0.113.99' })).status).toBe(429);
    await t.close();
    t = await makeTestApp({ config: { limits: { ...LIMITS, authFailuresPerKey: 0, trustProxy: true } } });
    for (let i = 0; i < LIMITS.authFailuresPerAddress + 3; i++) {
      expect((await from('127.0.0.1', '/api/v1/nodes', { Authorization: 'ApiKey a.b', 'X-Forwarded-For': `198.51.100.1, 203.0.113.${i}` })).status).toBe(401);
    }
  });
});

describe('sign-in link flood', () => {
  const mails = (email: string) => t.log.lines.filter((l) => l.includes(`mail to ${email}`)).length;
  const ask = (address: string, email: string) => from(address, '/api/v1/auth/magic-link', { 'Content-Type': 'application/json' }, { method: 'POST', body: JSON.stringify({ email }) });

  it('per email: always 202, at most N links sent, one warning', async () => {
    t = await makeTestApp({ config: { limits: LIMITS } });
    await t.s.auth.addUser('ada@example.com', 'alpha');
    for (let i = 0; i < 30; i++) expect((await ask(`10.9.0.${i}`, i % 2 ? 'ada@example.com' : 'ADA@example.com')).status).toBe(202);
    expect(mails('ada@example.com')).toBe(LIMITS.magicLinksPerEmail);
    expect(t.log.lines.filter((l) => l.includes('WARN') && l.includes('sign-in link'))).toHaveLength(1);
  });

  it('per address: one client cannot spray many addresses', async () => {
    t = await makeTestApp({ config: { limits: LIMITS } });
    for (let i = 0; i < 12; i++) await t.s.auth.addUser(`u${i}@example.com`, 'alpha');
    for (let i = 0; i < 12; i++) expect((await ask('10.9.9.9', `u${i}@example.com`)).status).toBe(202);
    const sent = Array.from({ length: 12 }, (_, i) => mails(`u${i}@example.com`)).reduce((a, b) => a + b, 0);
    expect(sent).toBe(LIMITS.magicLinksPerAddress);
    // A malformed body is still a 400 (the limit does not hide validation).
    const bad = await from('10.9.9.9', '/api/v1/auth/magic-link', { 'Content-Type': 'application/json' }, { method: 'POST', body: '{"email":' });
    await expectProblem(bad, 400, 'validation_failed');
  });
});
