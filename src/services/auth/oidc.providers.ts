// Discovery of configured identity providers through openid-client: one cached
// Configuration per provider, with ID-token signatures checked against the provider's JWKS.
import type * as oidc from 'openid-client';
import { AppError, NotFoundError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { OidcProviderConfig, TokenAuthMethod } from '../../config-oidc.js';

export type FetchImpl = oidc.CustomFetch;

export class ProviderUnavailableError extends AppError {
  constructor(label: string) {
    super(502, 'bad_gateway', 'Identity provider unavailable', `${label} could not be reached or answered something Rhizome cannot use; try again later`);
  }
}

/** Plain http is accepted for a provider on this machine only (development, tests). */
export function isLoopbackUrl(u: URL): boolean {
  const h = u.hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * The first of client_secret_basic and client_secret_post in the provider's list; basic when
 * it lists neither or nothing (the default OpenID Connect Discovery names for an absent list).
 */
export function defaultTokenAuthMethod(supported: readonly string[] | undefined): TokenAuthMethod {
  const found = (supported ?? []).find((m): m is TokenAuthMethod => m === 'client_secret_basic' || m === 'client_secret_post');
  return found ?? 'client_secret_basic';
}

export class OidcProviders {
  private readonly cache = new Map<string, Promise<oidc.Configuration>>();

  constructor(
    readonly list: readonly OidcProviderConfig[],
    private readonly log: Logger,
    private readonly fetchImpl?: FetchImpl,
  ) {}

  get(name: string): OidcProviderConfig {
    const p = this.list.find((x) => x.name === name);
    if (!p) throw new NotFoundError(`Identity provider "${name}"`);
    return p;
  }

  /** Discovery from {issuer}/.well-known/openid-configuration, cached; retried after a failure. */
  config(name: string): Promise<oidc.Configuration> {
    const p = this.get(name);
    let c = this.cache.get(name);
    if (!c) {
      c = this.discover(p).catch((e: unknown) => {
        this.cache.delete(name);
        this.log.error(`OpenID discovery of ${p.issuer} failed`, e);
        throw new ProviderUnavailableError(p.label);
      });
      this.cache.set(name, c);
    }
    return c;
  }

  private async discover(p: OidcProviderConfig): Promise<oidc.Configuration> {
    const lib = await import('openid-client'); // loaded on first sign-in, not at start
    const issuer = new URL(p.issuer);
    const execute = issuer.protocol === 'http:' && isLoopbackUrl(issuer) ? [lib.allowInsecureRequests] : [];
    const secret = p.clientSecret;
    // With a secret, the method is chosen when a request is made, from the discovery document
    // then at hand: the configured one, else the first of basic and post the provider lists.
    const auth: oidc.ClientAuth = secret
      ? (as, client, body, headers) => {
          const method = p.tokenAuthMethod ?? defaultTokenAuthMethod(as.token_endpoint_auth_methods_supported);
          (method === 'client_secret_post' ? lib.ClientSecretPost(secret) : lib.ClientSecretBasic(secret))(as, client, body, headers);
        }
      : lib.None();
    const cfg = await lib.discovery(issuer, p.clientId, secret, auth, {
      execute,
      timeout: 10,
      ...(this.fetchImpl ? { [lib.customFetch]: this.fetchImpl } : {}),
    });
    // Verify ID-token signatures against the provider's JWKS even when the token came
    // straight from the token endpoint over TLS.
    lib.enableNonRepudiationChecks(cfg);
    return cfg;
  }

  /** Whether discovery worked and what the provider offers (for the sign-in page). */
  async describe(name: string): Promise<{ device: boolean; logout: boolean } | null> {
    try {
      const m = (await this.config(name)).serverMetadata();
      return { device: !!m.device_authorization_endpoint, logout: !!m.end_session_endpoint };
    } catch {
      return null;
    }
  }
}
