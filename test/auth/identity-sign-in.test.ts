// The shared sign-in step: verified email → user → session; automatic sign-up by domain.
import { raw } from '../helpers/raw.js';
import { afterEach, describe, expect, it } from 'vitest';
import { IdentitySignIn, NOT_ALLOWED, UNVERIFIED, type VerifiedIdentity } from '../../src/services/auth/identity-sign-in.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const who = (email: string, o: Partial<VerifiedIdentity> = {}): VerifiedIdentity => ({ source: 'test', subject: email, email, emailVerified: true, allowedDomains: [], ...o });

async function setup(signupTenant?: string) {
  t = await makeTestApp();
  const s = t.s;
  const signIn = new IdentitySignIn({ tx: s.tx, users: s.repos.users, tenants: s.tenants, auth: s.auth, clock: s.clock, log: s.log, signupTenant });
  await s.auth.addUser('ada@example.org', 'alpha');
  return { s, signIn, tokens: async () => (await raw(s.db).prepare('SELECT count(*) AS n FROM refresh_tokens').get() as { n: number }).n };
}

describe('IdentitySignIn', () => {
  it('signs a known user in by verified email (case-insensitive), with a working session', async () => {
    const { s, signIn } = await setup();
    const { user, tokens } = await signIn.signIn(who('ADA@example.org'));
    expect(user).toMatchObject({ tenantId: t!.tenantId, email: 'ada@example.org', signedUp: false });
    expect(await s.auth.authenticateBearer(tokens.access_token)).toMatchObject({ tenantId: t!.tenantId, kind: 'user' });
  });

  it('refuses unverified and missing emails, and unknown users, with one message for the latter', async () => {
    const { signIn, tokens } = await setup();
    await expect(signIn.signIn(who('ada@example.org', { emailVerified: false }))).rejects.toThrow(UNVERIFIED);
    await expect(signIn.signIn(who('', { email: undefined }))).rejects.toThrow(UNVERIFIED);
    await expect(signIn.signIn(who('bob@example.org'))).rejects.toThrow(NOT_ALLOWED);
    await expect(signIn.signIn(who('bob@other.org', { allowedDomains: ['example.org'] }))).rejects.toThrow(NOT_ALLOWED);
    expect(await tokens()).toBe(0);
  });

  it('signs allow-listed domains up, each in a tenant of their own by default', async () => {
    const { s, signIn } = await setup();
    const a = await signIn.signIn(who('bob@example.org', { allowedDomains: ['example.org'] }));
    const b = await signIn.signIn(who('carol@example.org', { allowedDomains: ['example.org'] }));
    expect(a.user.signedUp).toBe(true);
    expect(a.user.tenantId).not.toBe(b.user.tenantId);
    expect((await s.tenants.findByName('bob-example-org'))?.id).toBe(a.user.tenantId);
    // The second time, bob is simply a known user.
    expect((await signIn.signIn(who('bob@example.org'))).user).toMatchObject({ tenantId: a.user.tenantId, signedUp: false });
  });

  it('signs allow-listed domains up into RHIZOME_OIDC_SIGNUP_TENANT when set', async () => {
    const { s, signIn } = await setup('family');
    const a = await signIn.signIn(who('bob@example.org', { allowedDomains: ['example.org'] }));
    const b = await signIn.signIn(who('carol@example.org', { allowedDomains: ['example.org'] }));
    expect(a.user.tenantId).toBe(b.user.tenantId);
    expect((await s.tenants.findByName('family'))?.id).toBe(a.user.tenantId);
  });
});
