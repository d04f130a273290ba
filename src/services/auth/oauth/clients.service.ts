// Dynamic client registration (RFC 7591) for public clients: anyone may register (MCP
// clients do so before anyone signs in), so a client gets nothing but a client_id; what it
// may do is decided at the consent step, where the user sees its name and redirect host.
import { z } from 'zod';
import type { Clock } from '../../../clock.js';
import type { OAuthClientRow, OAuthRepo } from '../../../repos/oauth.repo.js';
import { randomSecret } from '../secrets.js';
import { OAuthError } from './oauth-error.js';
import { redirectUriProblem } from './redirect-uris.js';

const text = (max: number) => z.string().trim().min(1).max(max);
// Unknown metadata fields are ignored, as RFC 7591 §2 requires.
const Metadata = z.looseObject({
  redirect_uris: z.array(z.string().max(2000)).min(1).max(10),
  client_name: text(100).optional(),
  client_uri: z.string().url().max(2000).optional(),
  grant_types: z.array(z.string()).max(5).optional(),
  response_types: z.array(z.string()).max(5).optional(),
  token_endpoint_auth_method: z.string().optional(),
  scope: z.string().max(1000).optional(),
  software_id: text(200).optional(),
  software_version: text(100).optional(),
});

const GRANTS = new Set(['authorization_code', 'refresh_token']);

export class OAuthClients {
  constructor(private readonly d: { repo: OAuthRepo; clock: Clock }) {}

  async register(body: unknown) {
    const parsed = Metadata.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path.join('.') || 'body';
      const error = issue.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata';
      throw new OAuthError(error, `${where}: ${issue.message}`);
    }
    const m = parsed.data;
    for (const uri of m.redirect_uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new OAuthError('invalid_redirect_uri', problem);
    }
    const method = m.token_endpoint_auth_method ?? 'none';
    if (method !== 'none') throw new OAuthError('invalid_client_metadata', `token_endpoint_auth_method "${method}" is not supported: Rhizome registers public clients ("none") that prove themselves with PKCE`);
    const grants = m.grant_types ?? ['authorization_code', 'refresh_token'];
    const bad = grants.find((g) => !GRANTS.has(g));
    if (bad) throw new OAuthError('invalid_client_metadata', `grant_types: "${bad}" is not supported (authorization_code, refresh_token)`);
    if (!grants.includes('authorization_code')) throw new OAuthError('invalid_client_metadata', 'grant_types must include authorization_code');
    const responses = m.response_types ?? ['code'];
    if (responses.some((r) => r !== 'code')) throw new OAuthError('invalid_client_metadata', 'response_types: only "code" is supported');

    const now = this.d.clock.now();
    const row: OAuthClientRow = {
      client_id: `rzc_${randomSecret(18)}`,
      client_name: m.client_name ?? new URL(m.redirect_uris[0]).host,
      client_uri: m.client_uri ?? null,
      redirect_uris: [...new Set(m.redirect_uris)],
      software_id: m.software_id ?? null,
      software_version: m.software_version ?? null,
      created_at: now,
    };
    await this.d.repo.addClient(row);
    return {
      client_id: row.client_id,
      client_id_issued_at: Math.floor(now / 1000),
      client_name: row.client_name,
      ...(row.client_uri ? { client_uri: row.client_uri } : {}),
      redirect_uris: row.redirect_uris,
      grant_types: grants,
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(row.software_id ? { software_id: row.software_id } : {}),
      ...(row.software_version ? { software_version: row.software_version } : {}),
    };
  }

  async get(clientId: string): Promise<OAuthClientRow | undefined> {
    return clientId.length <= 200 ? await this.d.repo.client(clientId) : undefined;
  }
}
