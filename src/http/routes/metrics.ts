// GET /metrics: Prometheus text format, for an operator key only. Each process exposes its
// own numbers, so Prometheus scrapes every process at its own address (docs/metrics.md),
// not through the proxy that spreads tenants over them.
import { Hono } from 'hono';
import type { Services } from '../../container.js';
import { requireOperator } from '../operator-auth.js';

export function metricsRoutes(s: Services) {
  const r = new Hono();
  r.use('/metrics', requireOperator(s));
  r.get('/metrics', async (c) => {
    c.header('Content-Type', s.metrics.contentType);
    c.header('Cache-Control', 'no-store');
    return c.body(await s.metrics.render(), 200);
  });
  return r;
}
