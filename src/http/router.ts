// Every route module builds its routes on one of these: zod-validated, OpenAPI-documented,
// and turning validation failures into 400 validation_failed with field paths. Query
// strings are strict on every route: a parameter the route does not declare is a 400
// (a route with no query schema accepts none), never silently ignored.
import { OpenAPIHono, z, type Hook } from '@hono/zod-openapi';
import type { Principal } from '../services/auth/auth.service.js';
import { ValidationError } from '../errors.js';

export type AppEnv = { Variables: { principal: Principal; tenantId: string } };

const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) {
    const issues = result.error.issues;
    const errors = issues.map((i) => ({
      path: i.path.length ? i.path.join('.') : (i as { keys?: string[] }).keys?.join(',') ?? '',
      message: i.code === 'unrecognized_keys' ? `unknown ${result.target === 'query' ? 'query parameter' : 'field'}(s): ${(i as { keys?: string[] }).keys?.join(', ')}` : i.message,
    }));
    throw new ValidationError(errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; '), errors);
  }
};

type RouteConfig = { method?: string; path?: string; operationId?: string; request?: { query?: unknown } };

/** `get /nodes/{id}/links` → `getNodesIdLinks`: unique per method and path, stable. */
export function operationIdFor(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/**
 * The route with its query schema made strict (an empty strict one when it declares none)
 * and an operationId when it has none.
 */
export function strictQuery<R extends RouteConfig>(route: R): R {
  const q = route.request?.query;
  const strict = q instanceof z.ZodObject && !isLoose(q) ? z.strictObject(q.shape) : q === undefined ? z.strictObject({}) : q;
  const operationId = route.operationId ?? (route.method && route.path ? operationIdFor(route.method, route.path) : undefined);
  return { ...route, ...(operationId ? { operationId } : {}), request: { ...route.request, query: strict } };
}

/**
 * A route whose query string another party writes (an identity provider's redirect adds
 * `iss`, `session_state`...) declares it with z.looseObject: the only exception.
 */
function isLoose(q: z.ZodObject): boolean {
  const catchall = (q as unknown as { _zod: { def: { catchall?: { _zod: { def: { type: string } } } } } })._zod.def.catchall;
  return catchall?._zod.def.type === 'unknown';
}

export function createRouter(): OpenAPIHono<AppEnv> {
  const r = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });
  const openapi = r.openapi.bind(r);
  r.openapi = ((route: RouteConfig, ...rest: unknown[]) => (openapi as (...a: unknown[]) => unknown)(strictQuery(route), ...rest)) as never;
  return r;
}
