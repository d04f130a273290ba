// Revocation is immediate: logging out, or presenting a refresh token twice, ends the
// session family's access tokens on their very next request (no 15-minute tail).
import { raw } from '../helpers/raw.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { TEST_BACKEND } from '../helpers/test-database.js';

let t: TestApp;
beforeEach(async () => (t = await makeTestApp()));
afterEach(() => t.close());

async function session(email = 'ada@example.com') {
  await t.s.auth.addUser(email, 'alpha');
  const before = t.log.lines.length;
  await t.s.auth.requestMagicLink(email);
  const token = /token[=:] ?([^\s&]+)/.exec(t.log.lines.slice(before).join('\n'))![1];
  const res = await t.req('POST', '/api/v1/auth/magic-link/verify', { token: decodeURIComponent(token) }, null);
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

const bearer = (p: { access_token: string }) => `Bearer ${p.access_token}`;

describe('immediate revocation', () => {
  it('logout ends the session: its access tokens are refused on the next request', async () => {
    const a = await session();
    const other = await session('bob@example.com');
    expect((await t.req('GET', '/api/v1/nodes', undefined, bearer(a))).status).toBe(200);
    const out = await t.req('POST', '/api/v1/auth/logout', { refresh_token: a.refresh_token }, null);
    expect(out.status).toBe(204);
    const res = await t.req('GET', '/api/v1/nodes', undefined, bearer(a));
    const body = await expectProblem(res, 401, 'unauthorized');
    expect(body.detail).toMatch(/revoked/);
    await expectProblem(await t.req('POST', '/api/v1/auth/refresh', { refresh_token: a.refresh_token }, null), 401, 'unauthorized');
    // Another session of the same tenant is untouched.
    expect((await t.req('GET', '/api/v1/nodes', undefined, bearer(other))).status).toBe(200);
  });

  it('refresh-token reuse revokes the family: the access tokens of every rotation stop at once', async () => {
    const first = await session();
    const r1 = await t.req('POST', '/api/v1/auth/refresh', { refresh_token: first.refresh_token }, null);
    const second = await r1.json();
    expect((await t.req('GET', '/api/v1/nodes', undefined, bearer(second))).status).toBe(200);
    // The old refresh token again: reuse.
    await expectProblem(await t.req('POST', '/api/v1/auth/refresh', { refresh_token: first.refresh_token }, null), 401, 'unauthorized');
    for (const p of [first, second]) await expectProblem(await t.req('GET', '/api/v1/nodes', undefined, bearer(p)), 401, 'unauthorized');
  });

  it('eight refreshes of one token at once: one wins, the family is revoked, and the winner\'s new token is refused too', async () => {
    const first = await session();
    const results = await Promise.all(Array.from({ length: 8 }, () => t.req('POST', '/api/v1/auth/refresh', { refresh_token: first.refresh_token }, null)));
    const won = results.filter((r) => r.status === 200);
    expect(won.length).toBeLessThanOrEqual(1);
    expect(results.filter((r) => r.status === 401)).toHaveLength(8 - won.length);
    for (const r of won) {
      const pair = (await r.json()) as { access_token: string; refresh_token: string };
      // The session family was revoked by the losers' reuse: the winner's rotation is over too.
      await expectProblem(await t.req('POST', '/api/v1/auth/refresh', { refresh_token: pair.refresh_token }, null), 401, 'unauthorized');
      await expectProblem(await t.req('GET', '/api/v1/nodes', undefined, bearer(pair)), 401, 'unauthorized');
    }
  });

  it('logout with an unknown token is a quiet 204; a malformed body is a 400', async () => {
    expect((await t.req('POST', '/api/v1/auth/logout', { refresh_token: 'nope' }, null)).status).toBe(204);
    await expectProblem(await t.req('POST', '/api/v1/auth/logout', { refresh_token: 5 }, null), 400, 'validation_failed');
  });

  // SQLite's query plan (EXPLAIN QUERY PLAN): the PostgreSQL tier has its own indexes.
  it.skipIf(TEST_BACKEND === 'postgres')('the check is one lookup on the partial index', async () => {
    const plan = (await raw(t.s.db)
      .prepare("EXPLAIN QUERY PLAN SELECT 1 FROM refresh_tokens WHERE tenant_id = ? AND family_id = ? AND revoked_at IS NOT NULL LIMIT 1")
      .all('t', 'f')) as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING (COVERING )?INDEX refresh_tokens_revoked_family/);
  });
});
