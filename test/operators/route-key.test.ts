// The nginx template's routing key (deploy/nginx/rhizome.conf), its map's regular
// expressions applied here as nginx applies them: an API key routes by its id, and every
// access token of a tenant — any user, any refresh — by the same leading characters,
// different from another tenant's. This holds because Rhizome signs the tenant claim first.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const conf = readFileSync('deploy/nginx/rhizome.conf', 'utf8');
const rules = [...conf.matchAll(/^\s*"~(\*?)(.+?)"\s+"([^"]+)";$/gm)].map((m) => ({ re: new RegExp(m[2], m[1] ? 'i' : ''), value: m[3] }));

/** $rhizome_route_key for an Authorization header (the map's first matching rule, else the address). */
function routeKey(header: string | undefined, addr = '203.0.113.9'): string {
  for (const r of rules) {
    const m = header === undefined ? null : r.re.exec(header);
    if (m) return r.value.replace(/\$(\w+)/g, (_, name: string) => m.groups![name]);
  }
  return `addr:${addr}`;
}

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

async function bearer(email: string, tenant: string, tenantId: string) {
  const user = await t.s.auth.addUser(email, tenant);
  return t.s.auth.startSession(tenantId, user.id);
}

describe('the nginx routing key', () => {
  it('reads two rules from the template', () => {
    expect(rules).toHaveLength(2);
  });

  it('an API key routes by its id, whatever its secret or the scheme word\'s case', () => {
    const id = t.key.split('.')[0];
    expect(routeKey(`ApiKey ${t.key}`)).toBe(`key:${id}`);
    expect(routeKey(`apikey ${id}.other-secret`)).toBe(`key:${id}`);
    expect(routeKey(undefined)).toBe('addr:203.0.113.9');
    expect(routeKey('Basic Zm9vOmJhcg==')).toBe('addr:203.0.113.9');
  });

  it("every token of a tenant routes alike (two users, after refresh); another tenant's differs", async () => {
    const ada = await bearer('ada@example.com', 'alpha', t.tenantId);
    const bob = await bearer('bob@example.com', 'alpha', t.tenantId);
    t.clock.advance(60_000);
    const refreshed = await t.s.auth.refresh(ada.refresh_token);
    const keys = [ada, bob, refreshed].map((p) => routeKey(`Bearer ${p.access_token}`));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^tenant:[A-Za-z0-9_-]{52}$/);
    expect(Buffer.from(keys[0].slice('tenant:'.length), 'base64url').toString()).toBe(`{"tid":"${t.tenantId}"`);
    // The tokens themselves differ: the key is the tenant, not the token.
    expect(new Set([ada, bob, refreshed].map((p) => p.access_token)).size).toBe(3);

    const other = await t.tenant('beta');
    const cy = await bearer('cy@example.com', 'beta', other.tenantId);
    expect(routeKey(`Bearer ${cy.access_token}`)).not.toBe(keys[0]);
    // The token still works as before.
    expect((await t.req('GET', '/api/v1/nodes', undefined, `Bearer ${refreshed.access_token}`)).status).toBe(200);
  });
});
