// Builds Rhizome's own authorization server (for remote MCP clients) for the container.
import type { Clock } from '../../../clock.js';
import type { Logger } from '../../../logger.js';
import type { OAuthRepo } from '../../../repos/oauth.repo.js';
import type { AuthService } from '../auth.service.js';
import type { OidcService } from '../oidc.service.js';
import { AuthorizationService } from './authorization.service.js';
import { OAuthClients } from './clients.service.js';
import { authorizationServerMetadata, mcpResourceOf } from './metadata.js';
import { OAuthTokens } from './token.service.js';

export function buildOAuthServer(o: { repo: OAuthRepo; auth: AuthService; oidc: OidcService; tokenHmac: Buffer; clock: Clock; log: Logger; publicUrl: string }) {
  const clients = new OAuthClients({ repo: o.repo, clock: o.clock });
  const authorization = new AuthorizationService({ ...o, clients });
  const tokens = new OAuthTokens({ ...o, clients, resource: mcpResourceOf(o.publicUrl) });
  return { clients, authorization, tokens, metadata: () => authorizationServerMetadata(o.publicUrl) };
}

export type OAuthServer = ReturnType<typeof buildOAuthServer>;
