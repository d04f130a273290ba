// A remote MCP client connecting with no API key, exactly as the official SDK does it:
// StreamableHTTPClientTransport with an OAuthClientProvider meets the 401 on /mcp, follows
// WWW-Authenticate to the protected-resource metadata, then the authorization server
// metadata, registers itself, and sends the user to the authorization page. The "user" (a
// cookie-keeping browser) signs in with the emailed link and approves; the SDK exchanges the
// code with its PKCE verifier, calls tools with the bearer token, and later refreshes it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeByEmail, OAuthBrowser } from './oauth-browser.js';
import { freePort } from './op.js';
import { startRhizome, type TestRhizome } from './rhizome.js';

const REDIRECT = 'http://127.0.0.1:45771/oauth/callback';

/** What a desktop MCP client keeps: its registration, its tokens, the PKCE verifier. */
class RememberingProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'SDK remote client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  state() {
    return 'sdk-state-1';
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let rz: TestRhizome;
let homeKey: string;
beforeAll(async () => {
  rz = await startRhizome({ port: await freePort(), env: {} });
  homeKey = (await rz.s.tenants.create('home')).api_key;
  await rz.s.auth.addUser('ada@example.org', 'home');
});
afterAll(() => rz?.stop());

describe('remote MCP client through the official SDK', () => {
  it('discovers, registers, signs in by email, consents, calls tools, and refreshes', async () => {
    const provider = new RememberingProvider();
    const mcpUrl = new URL(`${rz.url}/mcp`);
    const first = new Client({ name: 'remote', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toMatch(/^rzc_/);
    const auth = provider.authorizationUrl!;
    expect(auth.origin + auth.pathname).toBe(`${rz.url}/oauth/authorize`);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('resource')).toBe(`${rz.url}/mcp`);

    const back = await authorizeByEmail(new OAuthBrowser(fetch, rz.url), auth.href, 'ada@example.org', rz.log.lines);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('sdk-state-1');
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await transport.finishAuth(back.searchParams.get('code')!);
    expect(provider.saved?.token_type).toMatch(/bearer/i);

    const client = new Client({ name: 'remote', version: '1.0.0' });
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((x) => x.name);
    expect(tools).toEqual(expect.arrayContaining(['create_node', 'search_nodes']));
    const made = (await client.callTool({ name: 'create_node', arguments: { title: 'Written by a remote agent' } })) as CallToolResult;
    expect(made.isError).toBeFalsy();
    await client.close();
    // The note is in the signed-in user's tenant.
    const listed = await (await fetch(`${rz.url}/api/v1/nodes`, { headers: { Authorization: `ApiKey ${homeKey}` } })).json();
    expect(listed.data.map((n: { title: string }) => n.title)).toContain('Written by a remote agent');

    // An access token that no longer works: the SDK refreshes through the token endpoint.
    const refreshBefore = provider.saved!.refresh_token;
    provider.saved = { ...provider.saved!, access_token: 'expired.or.revoked' };
    const again = new Client({ name: 'remote', version: '1.0.0' });
    await again.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    expect((await again.listTools()).tools.length).toBeGreaterThan(5);
    expect(provider.saved!.refresh_token).not.toBe(refreshBefore);
    await again.close();
  }, 30_000);
});
