// A real OpenID provider for the tests: node-oidc-provider on a free loopback port, with its
// development login and consent pages, the device flow and RP-initiated logout. Any login
// name signs in as {name}@example.org; the name "unverified" has email_verified=false.
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

export interface TestOp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's signing key (private), to forge tokens it would have signed. */
  signingKey: CryptoKey;
  kid: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

export async function startOp(o: { redirectUris: string[]; postLogoutRedirectUris?: string[] }): Promise<TestOp> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'op-key-1';
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'rhizome',
        client_secret: 'rhizome-test-secret',
        redirect_uris: o.redirectUris,
        post_logout_redirect_uris: o.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code', 'urn:ietf:params:oauth:grant-type:device_code'],
        response_types: ['code'],
      },
      {
        // A public client: no secret, PKCE only.
        client_id: 'rhizome-public',
        token_endpoint_auth_method: 'none',
        redirect_uris: o.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['rhizome-test-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    features: { devInteractions: { enabled: true }, deviceFlow: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, email: `${id}@example.org`, email_verified: id !== 'unverified' }),
    }),
  } as never);
  // Development interactions print a warning per request; the tests know.
  const server: Server = createServer(provider.callback());
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    issuer,
    clientId: 'rhizome',
    clientSecret: 'rhizome-test-secret',
    signingKey: privateKey,
    kid,
    stop: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
