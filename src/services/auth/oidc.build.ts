// Builds identity-provider sign-in for the container: the shared sign-in step, the
// authorization-code service and the device-grant service over the configured providers.
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Logger } from '../../logger.js';
import type { Repos } from '../../repos/index.js';
import type { AuthService } from './auth.service.js';
import { IdentitySignIn } from './identity-sign-in.js';
import { OidcDeviceService } from './oidc-device.service.js';
import { OidcProviders, type FetchImpl } from './oidc.providers.js';
import { OidcService } from './oidc.service.js';
import type { Keys } from './secrets.js';
import type { TenantsService } from './tenants.service.js';

export function buildOidc(o: {
  config: Config; tx: UnitOfWork; repos: Repos; keys: Keys; clock: Clock; log: Logger; auth: AuthService; tenants: TenantsService; fetch?: FetchImpl;
}) {
  const { config, repos, keys, clock, log, auth } = o;
  const signIn = new IdentitySignIn({ tx: o.tx, users: repos.users, tenants: o.tenants, auth, clock, log, signupTenant: config.oidc.signupTenant });
  const providers = new OidcProviders(config.oidc.providers, log, o.fetch);
  const base = { providers, repo: repos.oidc, tokenHmac: keys.tokenHmac, clock, log, signIn, auth };
  const oidc = new OidcService({ ...base, publicUrl: config.publicUrl });
  const oidcDevice = new OidcDeviceService({ ...base, oidc });
  return { signIn, oidc, oidcDevice };
}
