// createApp(services): the whole HTTP surface. Errors of every origin leave as problem+json.
import { statementDeadlineMs, withStatementScope } from '../db/store/statement-scope.js';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Services } from '../container.js';
import { AppError, MethodNotAllowedError, NotFoundError, PayloadTooLargeError, ValidationError } from '../errors.js';
import { isClientAbort } from './client-abort.js';
import { isStorageError } from '../db/storage-errors.js';
import { packageVersion } from '../paths.js';
import { requireAuth } from './auth.middleware.js';
import { tenantBudget } from './tenant-budget.js';
import { extensionCors } from './cors.js';
import { problem, toAppError } from './problem.js';
import { securityHeaders } from './security-headers.js';
import { magicLinkLimit } from './rate-limit.js';
import type { AppEnv } from './router.js';
import { docsRoutes } from './routes/docs.js';
import { healthRoutes } from './routes/health.js';
import { apiRouteModules } from './routes/index.js';
import { mcpMount } from './routes/mcp.js';
import { oauthCors, oauthMount } from './oauth/mount.js';
import { documentOAuthRoutes } from './oauth/openapi.js';
import { documentNonApiRoutes } from './routes/non-api-docs.js';
import { httpMetrics } from './http-metrics.js';
import { metricsRoutes } from './routes/metrics.js';

export const JSON_BODY_LIMIT = 1024 * 1024;
/** Routes that enforce their own (streamed) size limit. */
const OWN_LIMIT = new Set(['/api/v1/captures/upload', '/api/v1/imports/markdown', '/api/v1/imports/bookmarks']);

export type ExtraMount = (app: Hono<AppEnv>, s: Services) => void;

export function createApp(s: Services, extras: ExtraMount[] = []) {
  const app = new OpenAPIHono<AppEnv>();

  app.onError((err, c) => {
    if (isStorageError(err)) {
      s.status.storage.failed(err);
      s.log.warn(`${c.req.method} ${c.req.path} refused: ${err instanceof Error ? err.message : String(err)}`);
    }
    const known = toAppError(err);
    if (known) return problem(c, known);
    if (isClientAbort(err)) {
      s.log.debug(`client went away during ${c.req.method} ${c.req.path}`);
      return problem(c, new ValidationError('The request body ended before it was complete'));
    }
    s.log.error(`unhandled error on ${c.req.method} ${c.req.path}`, err);
    return problem(c, new AppError(500, 'internal_error', 'Internal error', 'An unexpected error occurred; it has been logged'));
  });

  app.use('*', httpMetrics(s.metrics));
  app.use('*', securityHeaders());
  // A request's statements are cancelled in the database when its client goes away or its
  // deadline passes (db/store/statement-scope.ts; PostgreSQL only: SQLite's take microseconds).
  app.use('*', (c, next) => withStatementScope({ signal: c.req.raw.signal, deadlineMs: statementDeadlineMs(c.req.method, c.req.path) }, next));
  // A write that went through means the disk has room again: /health stops saying degraded.
  app.use('/api/v1/*', async (c, next) => {
    await next();
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.res.status < 400 && s.status.storage.reason()) s.status.storage.ok();
  });
  // Before auth, so an extension's preflight (which carries no key) is answered.
  for (const path of ['/api/v1/*', '/health']) app.use(path, extensionCors());
  app.use('/api/v1/*', async (c, next) => {
    if (OWN_LIMIT.has(c.req.path)) return next();
    return bodyLimit({
      maxSize: JSON_BODY_LIMIT,
      onError: () => {
        throw new PayloadTooLargeError('Request body exceeds 1 MB');
      },
    })(c, next);
  });
  // Tenant data must not linger in browser or proxy caches.
  app.use('/api/v1/*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
  app.use('/api/v1/*', requireAuth(s));
  app.use('/api/v1/*', tenantBudget(s));
  app.use('/api/v1/auth/magic-link', magicLinkLimit(s));

  app.route('/', healthRoutes(s));
  app.route('/', metricsRoutes(s));
  for (const mod of apiRouteModules) app.route('/api/v1', mod(s));
  app.route('/api/v1', docsRoutes());

  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey', in: 'header', name: 'Authorization', description: 'ApiKey {key_id}.{secret}',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'Bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  app.doc31('/api/v1/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Rhizome API', version: packageVersion(), description: 'Local-first personal knowledge graph. Errors are application/problem+json.',
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    servers: [{ url: '/' }],
    security: [{ ApiKey: [] }, { Bearer: [] }],
  });

  // Streamable HTTP MCP at /mcp (outside /api/v1, authenticated like it).
  oauthCors(app as never);
  mcpMount(app as never, s);
  oauthMount(app as never, s);
  documentNonApiRoutes(app.openAPIRegistry);
  documentOAuthRoutes(app.openAPIRegistry);

  for (const extra of extras) extra(app as never, s);

  const routes = () => app.routes.filter((r) => r.method !== 'ALL').map((r) => ({ method: r.method, re: pathRegex(r.path) }));
  let table: ReturnType<typeof routes> | undefined;
  app.notFound((c) => {
    table ??= routes();
    const allow = [...new Set(table.filter((r) => r.re.test(c.req.path)).map((r) => r.method))];
    if (allow.length && !allow.includes(c.req.method)) return problem(c, new MethodNotAllowedError(c.req.method, allow));
    return problem(c, new NotFoundError(`Route ${c.req.method} ${c.req.path}`));
  });

  return app;
}

function pathRegex(path: string): RegExp {
  const src = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${src}/?$`);
}
