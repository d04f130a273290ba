import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import { body, errors, IdParam, json } from '../../schemas/common.js';
import { DeliveryParams, Webhook, WebhookCreate, WebhookCreated, WebhookDelivery, WebhookDeliveryList, WebhookList } from '../../schemas/webhooks.js';
import { createRouter } from '../router.js';

export function webhooksRoutes(s: Services) {
  const r = createRouter();
  const t = ['webhooks'];

  r.openapi(
    createRoute({
      method: 'post', path: '/webhooks', tags: t, summary: 'Subscribe a URL to events; the signing secret is in this answer only',
      request: body(WebhookCreate), responses: { 201: json(WebhookCreated, 'Created'), ...errors(400) },
    }),
    async (c) => c.json(await s.webhooks.create(c.get('tenantId'), c.req.valid('json')), 201),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/webhooks', tags: t, summary: "The tenant's webhooks", responses: { 200: json(WebhookList), ...errors() } }),
    async (c) => c.json({ data: await s.webhooks.list(c.get('tenantId')) }, 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/webhooks/{id}', tags: t, summary: 'One webhook', request: { params: IdParam }, responses: { 200: json(Webhook), ...errors(404) } }),
    async (c) => c.json(await s.webhooks.get(c.get('tenantId'), c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'delete', path: '/webhooks/{id}', tags: t, summary: 'Unsubscribe (pending deliveries are dropped)',
      request: { params: IdParam }, responses: { 204: { description: 'Deleted' }, ...errors(404) },
    }),
    async (c) => {
      await s.webhooks.remove(c.get('tenantId'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/webhooks/{id}/deliveries', tags: t, summary: 'The delivery log, newest first',
      request: { params: IdParam, query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }) },
      responses: { 200: json(WebhookDeliveryList), ...errors(400, 404) },
    }),
    async (c) => c.json({ data: await s.webhooks.deliveries(c.get('tenantId'), c.req.valid('param').id, c.req.valid('query').limit) }, 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/webhooks/{id}/deliveries/{delivery_id}/replay', tags: t, summary: 'Send a delivery again (same webhook-id)',
      request: { params: DeliveryParams }, responses: { 202: json(WebhookDelivery, 'Queued'), ...errors(404) },
    }),
    async (c) => {
      const p = c.req.valid('param');
      return c.json(await s.webhooks.replay(c.get('tenantId'), p.id, p.delivery_id), 202);
    },
  );

  return r;
}
