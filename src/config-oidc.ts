// Identity-provider configuration, read by src/config.ts (the only reader of the environment).
// One provider: RHIZOME_OIDC_ISSUER, _CLIENT_ID, _CLIENT_SECRET, _NAME, _ALLOWED_DOMAINS,
// _SCOPES, _TOKEN_AUTH_METHOD.
// Several: RHIZOME_OIDC_PROVIDERS=authentik,google and RHIZOME_OIDC_<NAME>_ISSUER and so on
// for each name (the single-provider variables stay valid and add one more provider).
import { z } from 'zod';

export interface OidcProviderConfig {
  /** URL-safe id used in routes: /auth/oidc/{name}/start. */
  readonly name: string;
  /** Button label: "Sign in with {label}". */
  readonly label: string;
  readonly issuer: string;
  readonly clientId: string;
  /** Absent: a public client (PKCE only, token endpoint auth "none"). */
  readonly clientSecret: string | undefined;
  /** Lower-case email domains whose verified users are signed up automatically. */
  readonly allowedDomains: readonly string[];
  readonly scopes: string;
  /**
   * How Rhizome authenticates at the token endpoint with its secret; absent: the first of
   * these two the provider's discovery document lists (client_secret_basic when it lists none).
   */
  readonly tokenAuthMethod: TokenAuthMethod | undefined;
}

export const TOKEN_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;
export type TokenAuthMethod = (typeof TOKEN_AUTH_METHODS)[number];

export interface OidcConfig {
  readonly providers: readonly OidcProviderConfig[];
  /** Tenant for automatic sign-ups; absent: each new user gets a tenant of their own. */
  readonly signupTenant: string | undefined;
}

const opt = z.string().min(1).optional();

/** The fixed variables; per-provider ones (RHIZOME_OIDC_<NAME>_*) are read by readOidcConfig. */
export const oidcEnv = {
  RHIZOME_OIDC_ISSUER: z.string().url().optional(),
  RHIZOME_OIDC_CLIENT_ID: opt,
  RHIZOME_OIDC_CLIENT_SECRET: opt,
  RHIZOME_OIDC_NAME: opt,
  RHIZOME_OIDC_ALLOWED_DOMAINS: opt,
  RHIZOME_OIDC_SCOPES: opt,
  RHIZOME_OIDC_TOKEN_AUTH_METHOD: z.enum(TOKEN_AUTH_METHODS).optional(),
  RHIZOME_OIDC_PROVIDERS: opt,
  RHIZOME_OIDC_SIGNUP_TENANT: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/i, 'a tenant name: letters, digits, "-" or "_"').optional(),
};

type FixedOidcEnv = { [K in keyof typeof oidcEnv]?: z.infer<(typeof oidcEnv)[K]> };

const providerSchema = z.object({
  issuer: z.string().url(),
  clientId: z.string().min(1),
  clientSecret: opt,
  label: opt,
  allowedDomains: opt,
  scopes: opt,
  tokenAuthMethod: z.enum(TOKEN_AUTH_METHODS).optional(),
});

const domainList = (raw: string | undefined) =>
  (raw ?? '').split(',').map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter(Boolean);

export const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'oidc';

function build(name: string, raw: unknown, where: string, globalDomains: string[]): OidcProviderConfig {
  const p = providerSchema.safeParse(raw);
  if (!p.success) {
    const lines = p.error.issues.map((i) => `  ${where}${String(i.path[0]).replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  const d = p.data;
  const own = domainList(d.allowedDomains);
  return {
    name,
    label: d.label ?? new URL(d.issuer).hostname,
    issuer: d.issuer,
    clientId: d.clientId,
    clientSecret: d.clientSecret,
    allowedDomains: own.length ? own : globalDomains,
    scopes: d.scopes ?? 'openid email profile',
    tokenAuthMethod: d.tokenAuthMethod,
  };
}

export function readOidcConfig(env: NodeJS.ProcessEnv, e: FixedOidcEnv): OidcConfig {
  const providers: OidcProviderConfig[] = [];
  const globalDomains = domainList(e.RHIZOME_OIDC_ALLOWED_DOMAINS);
  if (e.RHIZOME_OIDC_ISSUER || e.RHIZOME_OIDC_CLIENT_ID) {
    const label = e.RHIZOME_OIDC_NAME;
    providers.push(
      build(
        slug(label ?? 'oidc'),
        { issuer: e.RHIZOME_OIDC_ISSUER, clientId: e.RHIZOME_OIDC_CLIENT_ID, clientSecret: e.RHIZOME_OIDC_CLIENT_SECRET, label, scopes: e.RHIZOME_OIDC_SCOPES, tokenAuthMethod: e.RHIZOME_OIDC_TOKEN_AUTH_METHOD },
        'RHIZOME_OIDC_',
        globalDomains,
      ),
    );
  }
  for (const name of (e.RHIZOME_OIDC_PROVIDERS ?? '').split(',').map((n) => n.trim()).filter(Boolean)) {
    if (!/^[A-Za-z0-9_]{1,40}$/.test(name)) throw new Error(`invalid configuration:\n  RHIZOME_OIDC_PROVIDERS: "${name}" must be letters, digits or "_"`);
    const pre = `RHIZOME_OIDC_${name.toUpperCase()}_`;
    const v = (k: string) => env[pre + k] || undefined;
    providers.push(
      build(
        slug(name),
        { issuer: v('ISSUER'), clientId: v('CLIENT_ID'), clientSecret: v('CLIENT_SECRET'), label: v('NAME') ?? name, allowedDomains: v('ALLOWED_DOMAINS'), scopes: v('SCOPES'), tokenAuthMethod: v('TOKEN_AUTH_METHOD') },
        pre,
        globalDomains,
      ),
    );
  }
  const names = providers.map((p) => p.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`invalid configuration:\n  RHIZOME_OIDC_PROVIDERS: two providers are named "${dup}"`);
  return { providers, signupTenant: e.RHIZOME_OIDC_SIGNUP_TENANT };
}
