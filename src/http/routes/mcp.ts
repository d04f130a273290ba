// Streamable HTTP MCP at /mcp, stateless: each POST gets a fresh server whose tools call
// this same app in-process with the caller's own Authorization header, so MCP sees exactly
// what the REST API would show that caller (tenant isolation included).
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { StaticAuth } from '../../client/auth.js';
import { RhizomeClient } from '../../client/client.js';
import type { Services } from '../../container.js';
import { AppError, MethodNotAllowedError, PayloadTooLargeError } from '../../errors.js';
import { allowedHostnames, rebindingRefusal } from '../../mcp/http-guard.js';
import { PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from '../../mcp/resource-metadata.js';
import { requireAuth } from '../auth.middleware.js';
import { problem } from '../problem.js';
import type { AppEnv } from '../router.js';

export const MCP_PATH = '/mcp';
const IN_PROCESS_ORIGIN = 'http://rhizome.internal';
const MCP_BODY_MAX = 4 * 1024 * 1024;

export function mcpMount(app: Hono<AppEnv>, s: Services): void {
  const allowed = allowedHostnames(s.config);
  // The whole body is read before anything answers: a refusal sent while the client is
  // still sending (bad credentials, a wrong Accept or body type) left the rest unread, and
  // the adapter then closed the kept-alive connection when it did not arrive within 500 ms,
  // which a busy client saw as a reset.
  app.use(MCP_PATH, bodyLimit({ maxSize: MCP_BODY_MAX, onError: () => { throw new PayloadTooLargeError('MCP request body exceeds 4 MB'); } }));
  app.use(MCP_PATH, async (c, next) => {
    if (c.req.method === 'POST') await c.req.arrayBuffer();
    await next();
  });
  app.use(MCP_PATH, async (c, next) => {
    const refusal = rebindingRefusal(allowed, c.req.header('Host') ?? new URL(c.req.url).host, c.req.header('Origin'));
    if (refusal) return problem(c, new AppError(403, 'forbidden', 'Forbidden', refusal));
    await next();
    // RFC 9728: a client that speaks MCP authorization finds the resource metadata here.
    if (c.res.status === 401) c.res.headers.set('WWW-Authenticate', `Bearer resource_metadata="${s.config.publicUrl}${PROTECTED_RESOURCE_PATH}"`);
  });
  // The well-known path as such, and with the resource's path appended (RFC 9728 §3.1).
  for (const path of [PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}${MCP_PATH}`]) app.get(path, (c) => c.json(protectedResourceMetadata(s.config.publicUrl)));
  app.use(MCP_PATH, requireAuth(s));

  app.post(MCP_PATH, async (c) => {
    const client = new RhizomeClient({
      apiUrl: IN_PROCESS_ORIGIN,
      auth: new StaticAuth(c.req.header('Authorization')!, 'header'),
      fetch: async (input, init) => app.request(input, init),
    });
    // The MCP SDK and the tools load on the first MCP request, not when the server starts.
    const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
      import('../../mcp/server.js'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    ]);
    const server = createMcpServer(client);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      // The body was read above (and kept by Hono); the transport gets a request that carries it.
      const raw = c.req.raw;
      return await transport.handleRequest(new Request(raw.url, { method: raw.method, headers: raw.headers, body: await c.req.arrayBuffer(), signal: raw.signal }));
    } finally {
      await server.close();
    }
  });

  // Stateless: no server-initiated stream to GET and no session to DELETE.
  app.on(['GET', 'DELETE'], MCP_PATH, (c) => problem(c, new MethodNotAllowedError(c.req.method, ['POST'])));
}
