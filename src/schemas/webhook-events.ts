// The events a tenant can subscribe a webhook to, and what each carries in `data`. Services
// announce a change by calling EventSink.emit() INSIDE the transaction that makes it: the
// delivery rows commit with the change or not at all (an outbox), so a crash loses none.
export const WEBHOOK_EVENTS = [
  'node.created',
  'node.updated',
  'node.deleted',
  'capture.completed',
  'capture.failed',
  'para.filed',
  'highlight.created',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookEventData {
  'node.created': { id: string; title: string; tags: string[]; status: string };
  'node.updated': { id: string; title: string; tags: string[]; status: string };
  'node.deleted': { id: string };
  'capture.completed': { capture_id: string; node_id: string; url: string | null };
  'capture.failed': { capture_id: string; error: string; stage: string | null; url: string | null };
  'para.filed': { node_id: string; para_item_id: string; source: 'user' | 'auto' };
  'highlight.created': { node_id: string; highlight_id: string; text: string };
}

/** What services call to announce a change; the webhook outbox is the real one. */
export interface EventSink {
  emit<T extends WebhookEventType>(tenantId: string, type: T, data: WebhookEventData[T]): Promise<void>;
}

/** For services built without webhooks (admin commands, some tests). */
export const noEvents: EventSink = { emit: async () => {} };
