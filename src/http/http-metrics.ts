// Observes every request's latency into rhizome_http_request_duration_seconds, labelled by
// the route pattern that matched (`/api/v1/nodes/:id`, never the raw path, so ids do not
// explode the series), and names this process in X-Rhizome-Instance (the proxy test, and an
// operator, can tell which process answered).
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Metrics } from '../services/operators/metrics.js';

export const INSTANCE_HEADER = 'X-Rhizome-Instance';

/** The pattern of the handler the request was for: the last matched route that is not middleware. */
export function routeLabel(c: Context): string {
  const routes = matchedRoutes(c).filter((r) => r.method !== 'ALL');
  return routes.length ? routes[routes.length - 1].path : 'unmatched';
}

export function httpMetrics(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const end = metrics.httpDuration.startTimer();
    try {
      await next();
    } finally {
      end({ method: c.req.method, route: routeLabel(c), status: String(c.res.status) });
      c.res.headers.set(INSTANCE_HEADER, metrics.instanceId);
    }
  };
}
