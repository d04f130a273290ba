// The outbox: an event becomes one delivery row per subscribed webhook and one durable job
// per row, written in the caller's transaction. The webhooks are picked in SQL by a write
// held for the transaction's next statement: on PostgreSQL the outbox costs no round trip,
// for the tenant with no webhook (nearly every one) as for the one with some.
import { iso, type Clock } from '../../clock.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { WebhooksRepo } from '../../repos/webhooks.repo.js';
import type { EventSink, WebhookEventData, WebhookEventType } from '../../schemas/webhook-events.js';

export const WEBHOOK_DELIVER_JOB = 'webhook_deliver';

/** A delivery job's payload (the outbox's SQL writes the same shape: webhooks.repo.ts). */
export interface DeliverPayload {
  delivery_id: string;
}

export class WebhookOutbox implements EventSink {
  constructor(
    private readonly repo: WebhooksRepo,
    private readonly queue: Pick<JobQueue, 'enqueueInTx' | 'wakeAfterCommit'>,
    private readonly clock: Clock,
  ) {}

  async emit<T extends WebhookEventType>(tenantId: string, type: T, data: WebhookEventData[T]): Promise<void> {
    const now = this.clock.now();
    const at = iso(now);
    let deliveries = 0;
    await this.repo.insertDeliveriesLater(
      {
        tenant_id: tenantId,
        event_type: type,
        id_prefix: `${newId('msg')}_`,
        body: JSON.stringify({ type, timestamp: at, data }),
        created_at: at,
        job_kind: WEBHOOK_DELIVER_JOB,
        now,
      },
      (n) => (deliveries = n),
    );
    // Nothing to claim when no webhook heard the event: the queue is not woken for it.
    this.queue.wakeAfterCommit(() => deliveries > 0);
  }

  /** The job that sends (or re-sends) one delivery. */
  async enqueue(tenantId: string, deliveryId: string): Promise<void> {
    await this.queue.enqueueInTx(tenantId, WEBHOOK_DELIVER_JOB, { delivery_id: deliveryId } satisfies DeliverPayload);
  }
}
