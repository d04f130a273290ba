// The identity-provider variables: one provider, several, and what is refused at start-up.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const base = { RHIZOME_DATA_DIR: '/tmp/rhizome-oidc-config' };

describe('identity-provider configuration', () => {
  it('has no provider by default', () => {
    expect(loadConfig(base).oidc).toEqual({ providers: [], signupTenant: undefined });
  });

  it('reads one provider from RHIZOME_OIDC_*; a public client has no secret', () => {
    const c = loadConfig({ ...base, RHIZOME_OIDC_ISSUER: 'https://auth.example.org/application/o/rhizome/', RHIZOME_OIDC_CLIENT_ID: 'rhizome', RHIZOME_OIDC_NAME: 'Authentik', RHIZOME_OIDC_ALLOWED_DOMAINS: 'Example.org, @family.example' });
    expect(c.oidc.providers).toEqual([
      { name: 'authentik', label: 'Authentik', issuer: 'https://auth.example.org/application/o/rhizome/', clientId: 'rhizome', clientSecret: undefined, allowedDomains: ['example.org', 'family.example'], scopes: 'openid email profile' },
    ]);
  });

  it('reads several providers from RHIZOME_OIDC_PROVIDERS, each with its own variables', () => {
    const c = loadConfig({
      ...base,
      RHIZOME_OIDC_PROVIDERS: 'keycloak,google',
      RHIZOME_OIDC_KEYCLOAK_ISSUER: 'https://kc.example.org/realms/home',
      RHIZOME_OIDC_KEYCLOAK_CLIENT_ID: 'rhizome',
      RHIZOME_OIDC_KEYCLOAK_CLIENT_SECRET: 's3cret',
      RHIZOME_OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
      RHIZOME_OIDC_GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
      RHIZOME_OIDC_GOOGLE_CLIENT_SECRET: 'g',
      RHIZOME_OIDC_GOOGLE_NAME: 'Google',
      RHIZOME_OIDC_GOOGLE_ALLOWED_DOMAINS: 'example.com',
      RHIZOME_OIDC_ALLOWED_DOMAINS: 'example.org',
      RHIZOME_OIDC_SIGNUP_TENANT: 'family',
    });
    expect(c.oidc.signupTenant).toBe('family');
    expect(c.oidc.providers.map((p) => [p.name, p.label, p.clientSecret, p.allowedDomains])).toEqual([
      ['keycloak', 'keycloak', 's3cret', ['example.org']],
      ['google', 'Google', 'g', ['example.com']],
    ]);
  });

  it('refuses a provider without issuer or client id, a bad issuer, and duplicate names', () => {
    expect(() => loadConfig({ ...base, RHIZOME_OIDC_CLIENT_ID: 'x' })).toThrow(/RHIZOME_OIDC_ISSUER/);
    expect(() => loadConfig({ ...base, RHIZOME_OIDC_ISSUER: 'not a url', RHIZOME_OIDC_CLIENT_ID: 'x' })).toThrow(/RHIZOME_OIDC_ISSUER/);
    expect(() => loadConfig({ ...base, RHIZOME_OIDC_PROVIDERS: 'kc', RHIZOME_OIDC_KC_ISSUER: 'https://kc.example.org' })).toThrow(/RHIZOME_OIDC_KC_CLIENT_ID/);
    expect(() => loadConfig({ ...base, RHIZOME_OIDC_PROVIDERS: 'a b' })).toThrow(/RHIZOME_OIDC_PROVIDERS/);
    expect(() =>
      loadConfig({ ...base, RHIZOME_OIDC_PROVIDERS: 'kc,KC', RHIZOME_OIDC_KC_ISSUER: 'https://kc.example.org', RHIZOME_OIDC_KC_CLIENT_ID: 'x' }),
    ).toThrow(/two providers/);
  });
});
