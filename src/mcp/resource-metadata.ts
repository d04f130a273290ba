// OAuth 2.0 Protected Resource Metadata (RFC 9728) for /mcp: what the resource is, how a
// token is presented, and which authorization server issues tokens for it: Rhizome's own
// (authorization code + PKCE, docs/mcp-remote.md), whose issuer is the public URL.
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

export function protectedResourceMetadata(publicUrl: string) {
  const base = publicUrl.replace(/\/+$/, '');
  return {
    resource: `${base}/mcp`,
    authorization_servers: [base],
    resource_name: 'Rhizome MCP server',
    bearer_methods_supported: ['header'],
    resource_documentation: `${base}/api/v1/docs`,
  };
}
