// Authorization server metadata (RFC 8414) for Rhizome's own authorization server. The
// issuer is the public URL, so clients find it at /.well-known/oauth-authorization-server.
export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';
export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

export const issuerOf = (publicUrl: string) => publicUrl.replace(/\/+$/, '');
/** The one resource tokens are issued for (RFC 8707): this server's MCP endpoint. */
export const mcpResourceOf = (publicUrl: string) => `${issuerOf(publicUrl)}/mcp`;

/**
 * Whether a client's resource indicator names this resource: compared as URLs (host case,
 * default port and a trailing slash do not matter), never by prefix.
 */
export function sameResource(presented: string, resource: string): boolean {
  const norm = (raw: string) => {
    const u = new URL(raw);
    if (u.hash || u.search || u.username || u.password) return null;
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  };
  try {
    return norm(presented) === norm(resource);
  } catch {
    return false;
  }
}

export function authorizationServerMetadata(publicUrl: string) {
  const base = issuerOf(publicUrl);
  return {
    issuer: base,
    authorization_endpoint: `${base}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${base}${OAUTH_PATHS.token}`,
    registration_endpoint: `${base}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${base}${OAUTH_PATHS.revoke}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/api/v1/docs`,
  };
}
