// Rhizome's own OAuth 2.1 authorization server for remote MCP clients (docs/mcp-remote.md):
// outside /api/v1, like /mcp, because OAuth clients expect OAuth's shapes, not the API's.
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Services } from '../../container.js';
import { PayloadTooLargeError } from '../../errors.js';
import type { AppEnv } from '../router.js';
import { authorizeMount } from './authorize.js';
import { endpointsMount } from './endpoints.js';

export function oauthMount(app: Hono<AppEnv>, s: Services): void {
  app.use('/oauth/*', bodyLimit({ maxSize: 64 * 1024, onError: () => { throw new PayloadTooLargeError('OAuth request body exceeds 64 KB'); } }));
  endpointsMount(app, s);
  authorizeMount(app, s);
}
