// OAuth 2.0 Protected Resource Metadata (RFC 9728) for /mcp: what the resource is and how a
// token is presented. `authorization_servers` is absent until Rhizome runs its own
// authorization server (authorization code + PKCE); today tokens are API keys or the
// bearer tokens of the magic-link sign-in.
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

export function protectedResourceMetadata(publicUrl: string) {
  const base = publicUrl.replace(/\/+$/, '');
  return {
    resource: `${base}/mcp`,
    resource_name: 'Rhizome MCP server',
    bearer_methods_supported: ['header'],
    resource_documentation: `${base}/api/v1/docs`,
  };
}
