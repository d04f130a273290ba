// OpenAPI entries for the routes that are not built from zod route definitions: the MCP
// endpoint, its RFC 9728 metadata, the API reference pages and the document itself.
import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { Problem } from '../../schemas/common.js';

const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: Problem } } });
const JsonRpc = z.object({ jsonrpc: z.literal('2.0'), method: z.string().optional(), id: z.union([z.string(), z.number()]).optional() }).passthrough().openapi('JsonRpcMessage');
const ResourceMetadata = z
  .object({ resource: z.string(), resource_name: z.string(), authorization_servers: z.array(z.string()), bearer_methods_supported: z.array(z.string()), resource_documentation: z.string() })
  .openapi('ProtectedResourceMetadata');

type Registry = OpenAPIHono['openAPIRegistry'];

export function documentNonApiRoutes(registry: Registry): void {
  registry.registerPath({
    method: 'post', path: '/mcp', tags: ['mcp'], operationId: 'postMcp',
    summary: 'MCP over streamable HTTP (stateless: every POST answered with JSON; GET and DELETE are 405). Host and Origin must name this server',
    request: { body: { content: { 'application/json': { schema: JsonRpc } }, required: true } },
    responses: {
      200: { description: 'JSON-RPC response', content: { 'application/json': { schema: JsonRpc } } },
      202: { description: 'Notification or response accepted' },
      401: problem('unauthorized (WWW-Authenticate points to the protected-resource metadata)'),
      403: problem('forbidden: foreign Host or Origin (DNS-rebinding protection)'),
      413: problem('payload_too_large (4 MB)'),
    },
  });
  // GET and DELETE /mcp answer 405 (stateless: no server stream, no session): not operations.
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
    registry.registerPath({
      method: 'get', path, tags: ['mcp'], security: [], operationId: path.endsWith('/mcp') ? 'getProtectedResourceMetadataMcp' : 'getProtectedResourceMetadata',
      summary: 'OAuth 2.0 protected-resource metadata for /mcp (RFC 9728)',
      responses: { 200: { description: 'OK', content: { 'application/json': { schema: ResourceMetadata } } }, 404: problem('not_found') },
    });
  }
  registry.registerPath({
    method: 'get', path: '/api/v1/docs', tags: ['meta'], security: [], operationId: 'getApiDocs', summary: 'The browsable API reference (Swagger UI)',
    responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } }, 404: problem('not_found') },
  });
  registry.registerPath({
    method: 'get', path: '/api/v1/docs/{file}', tags: ['meta'], security: [], operationId: 'getApiDocsAsset', summary: "The reference page's script and style sheet",
    request: { params: z.object({ file: z.enum(['swagger-ui.css', 'swagger-ui-bundle.js']).openapi({ param: { name: 'file', in: 'path' } }) }) },
    responses: {
      200: { description: 'Asset', content: { 'text/css': { schema: z.string() }, 'text/javascript': { schema: z.string() } } },
      404: problem('not_found'),
    },
  });
  registry.registerPath({
    method: 'get', path: '/metrics', tags: ['admin'], security: [{ OperatorKey: [] }], operationId: 'getMetrics',
    summary: "This process's metrics in Prometheus text format (operator key only; see docs/metrics.md)",
    responses: {
      200: { description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: z.string() } } },
      401: problem('unauthorized'),
      403: problem("forbidden (a tenant's key or token)"),
    },
  });
  registry.registerPath({
    method: 'get', path: '/api/v1/openapi.json', tags: ['meta'], operationId: 'getOpenApi', summary: 'This document',
    responses: { 200: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: z.object({}).passthrough() } } }, 401: problem('unauthorized') },
  });
}
