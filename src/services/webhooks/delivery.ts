// Sending one delivery: signed afresh at each attempt (a new webhook-timestamp, the same
// webhook-id and body), through the same SSRF guard as captures, redirects not followed.
// A 2xx answer delivers; anything else is retried on the Standard Webhooks schedule until
// about 24 h have passed, each attempt logged with its status and response time.
import { iso, type Clock } from '../../clock.js';
import { safeFetch, FetchError } from '../../ingest/fetch.js';
import type { Job, JobHandler } from '../../jobs/queue.js';
import type { Logger } from '../../logger.js';
import type { WebhooksRepo } from '../../repos/webhooks.repo.js';
import { WEBHOOK_DELIVER_JOB, type DeliverPayload } from './outbox.js';
import { webhookHeaders } from './signing.js';

/** Wait after attempt n fails: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then 6 h 25 min (24 h in all). */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 23_100_000];
/** A receiver has this long to answer (the spec suggests answering fast and working later). */
export const DELIVERY_TIMEOUT_MS = 15_000;

export interface DeliveryDeps {
  repo: WebhooksRepo;
  clock: Clock;
  log: Logger;
  allowPrivate: boolean;
}

export function deliveryJobHandler(d: DeliveryDeps): JobHandler<DeliverPayload> {
  const maxAttempts = RETRY_SCHEDULE_MS.length + 1;
  return {
    kind: WEBHOOK_DELIVER_JOB,
    maxAttempts,
    retryDelayMs: (attempt) => RETRY_SCHEDULE_MS[Math.min(attempt, RETRY_SCHEDULE_MS.length) - 1],
    run: async (jobs: Job<DeliverPayload>[]) => {
      for (const job of jobs) await deliver(d, job, job.attempts >= maxAttempts);
    },
  };
}

async function deliver(d: DeliveryDeps, job: Job<DeliverPayload>, last: boolean): Promise<void> {
  const delivery = await d.repo.delivery(job.tenantId, job.payload.delivery_id);
  if (!delivery || delivery.status === 'delivered') return; // webhook deleted, or already sent (a replay raced it)
  const hook = await d.repo.get(job.tenantId, delivery.webhook_id);
  if (!hook) return;
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await safeFetch(hook.url, {
      method: 'POST',
      body: delivery.body,
      headers: webhookHeaders(hook.secret, delivery.id, d.clock.now(), delivery.body),
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxRedirects: 0,
      allowPrivate: d.allowPrivate,
      acceptErrorStatus: true,
      headersOnly: () => true, // the answer's status is all that counts
    });
    status = res.status;
    if (status < 200 || status >= 300) error = `the receiver answered HTTP ${status}`;
  } catch (e) {
    error = e instanceof FetchError || e instanceof Error ? e.message : String(e);
  }
  const ms = Math.round(performance.now() - started);
  const outcome = error === null ? 'delivered' : last ? 'failed' : 'pending';
  await d.repo.recordAttempt(job.tenantId, delivery.id, { status: outcome, response_status: status, response_ms: ms, error, at: iso(d.clock.now()) });
  if (error !== null) {
    if (last) d.log.info(`webhook ${hook.id}: delivery ${delivery.id} failed for good: ${error}`);
    throw new Error(error); // the queue retries it on RETRY_SCHEDULE_MS
  }
}
