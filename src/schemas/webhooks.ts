// Webhooks: POST /webhooks {url, events} → 201 with the secret (shown once); the delivery
// log and replay. Event names: services/webhooks/events.ts.
import { z } from '@hono/zod-openapi';
import { WEBHOOK_EVENTS } from './webhook-events.js';

export const WebhookEventName = z.enum(WEBHOOK_EVENTS);

export const WebhookCreate = z
  .strictObject({
    url: z.string().trim().min(1).max(2000),
    events: z.array(WebhookEventName).min(1).max(WEBHOOK_EVENTS.length),
  })
  .openapi('WebhookCreate');

export const Webhook = z
  .object({ id: z.string(), url: z.string(), events: z.array(WebhookEventName), created_at: z.string() })
  .openapi('Webhook');

export const WebhookCreated = Webhook.extend({
  secret: z.string().openapi({ description: 'whsec_…: verify signatures with it. Shown only in this answer.' }),
}).openapi('WebhookCreated');

export const WebhookList = z.object({ data: z.array(Webhook) }).openapi('WebhookList');

export const WebhookDelivery = z
  .object({
    id: z.string().openapi({ description: 'The webhook-id header: the same on every retry and replay' }),
    webhook_id: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    response_status: z.number().int().nullable(),
    response_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    created_at: z.string(),
    last_attempt_at: z.string().nullable(),
    delivered_at: z.string().nullable(),
    payload: z.unknown(),
  })
  .openapi('WebhookDelivery');

export const WebhookDeliveryList = z.object({ data: z.array(WebhookDelivery) }).openapi('WebhookDeliveryList');

export const DeliveryParams = z.object({
  id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' } }),
  delivery_id: z.string().min(1).max(100).openapi({ param: { name: 'delivery_id', in: 'path' } }),
});
