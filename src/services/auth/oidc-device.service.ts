// The device authorization grant (RFC 8628) for a CLI on a machine without a browser.
// Rhizome is the OAuth client (it holds the client secret): the CLI asks Rhizome to start
// a device authorization, shows the user code, and polls Rhizome with an opaque handle;
// each poll makes one token request to the provider.
import type * as oidc from 'openid-client';
import type { Clock } from '../../clock.js';
import { UnauthorizedError, ValidationError } from '../../errors.js';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logger.js';
import type { OidcRepo } from '../../repos/oidc.repo.js';
import type { AuthService, TokenPair } from './auth.service.js';
import type { IdentitySignIn } from './identity-sign-in.js';
import type { OidcProviders } from './oidc.providers.js';
import type { OidcService } from './oidc.service.js';
import { hmac, randomSecret } from './secrets.js';

export interface DeviceStart {
  device_id: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  interval: number;
  expires_in: number;
}

export type DevicePoll = { status: 'pending'; interval: number } | ({ status: 'complete' } & TokenPair & { provider: string });

export interface OidcDeviceDeps {
  providers: OidcProviders;
  oidc: OidcService;
  repo: OidcRepo;
  tokenHmac: Buffer;
  clock: Clock;
  log: Logger;
  signIn: IdentitySignIn;
  auth: AuthService;
}

export class OidcDeviceService {
  constructor(private readonly d: OidcDeviceDeps) {}

  async start(name: string): Promise<DeviceStart> {
    const lib = await import('openid-client'); // loaded on first sign-in, not at start
    const p = this.d.providers.get(name);
    const cfg = await this.d.providers.config(name);
    if (!cfg.serverMetadata().device_authorization_endpoint) {
      throw new ValidationError(`${p.label} does not offer device authorization; use \`rhizome login --provider ${name}\` with a browser`);
    }
    let r: oidc.DeviceAuthorizationResponse;
    try {
      r = await lib.initiateDeviceAuthorization(cfg, { scope: p.scopes });
    } catch (e) {
      this.d.log.info(`device authorization at ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
      throw new UnauthorizedError(`${p.label} refused to start a device sign-in`);
    }
    const handle = randomSecret();
    const now = this.d.clock.now();
    await this.d.repo.purge(now);
    const expiresIn = Math.min(r.expires_in, 30 * 60);
    await this.d.repo.addFlow({
      id: randomUUID(), handle_hmac: hmac(this.d.tokenHmac, handle), provider: name, kind: 'device',
      nonce: null, code_verifier: null, device_code: r.device_code, return_to: '', client_state: null, handoff_challenge: null,
      created_at: now, expires_at: now + expiresIn * 1000,
    });
    return {
      device_id: handle,
      user_code: r.user_code,
      verification_uri: r.verification_uri,
      ...(r.verification_uri_complete ? { verification_uri_complete: r.verification_uri_complete } : {}),
      interval: r.interval ?? 5,
      expires_in: expiresIn,
    };
  }

  /** One token request; `pending` until the user has approved at the provider. */
  async poll(deviceId: string): Promise<DevicePoll> {
    const lib = await import('openid-client'); // loaded on first sign-in, not at start
    const now = this.d.clock.now();
    const flow = await this.d.repo.findFlowByHandle(hmac(this.d.tokenHmac, deviceId));
    const gone = new UnauthorizedError('This device sign-in is unknown, expired or already finished; start again');
    if (flow?.kind !== 'device' || flow.used_at !== null || flow.expires_at <= now || !flow.device_code) throw gone;
    const cfg = await this.d.providers.config(flow.provider);
    let tokens;
    try {
      tokens = await lib.genericGrantRequest(cfg, 'urn:ietf:params:oauth:grant-type:device_code', { device_code: flow.device_code });
    } catch (e) {
      if (e instanceof lib.ResponseBodyError && (e.error === 'authorization_pending' || e.error === 'slow_down')) {
        return { status: 'pending', interval: e.error === 'slow_down' ? 10 : 5 };
      }
      await this.d.repo.consumeFlow(flow.id, now);
      const denied = e instanceof lib.ResponseBodyError && e.error === 'access_denied';
      this.d.log.info(`device sign-in through ${flow.provider} refused: ${e instanceof Error ? e.message : String(e)}`);
      throw new UnauthorizedError(denied ? 'The sign-in was declined at the identity provider' : 'The identity provider\'s answer could not be verified; start again');
    }
    if (!await this.d.repo.consumeFlow(flow.id, now)) throw gone;
    const identity = await this.d.oidc.identityFrom(flow.provider, cfg, tokens);
    const { tokens: pair } = await this.d.signIn.signIn(identity);
    return { status: 'complete', ...pair, provider: flow.provider };
  }
}
