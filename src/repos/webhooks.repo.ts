// Webhook subscriptions and the delivery log (the outbox rows the delivery job sends).
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';
import { insertJobsFrom } from './jobs.repo.js';

export interface WebhookRow {
  id: string;
  tenant_id: string;
  url: string;
  events: string;
  secret: string;
  created_at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRow {
  id: string;
  tenant_id: string;
  webhook_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  response_status: number | null;
  response_ms: number | null;
  error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  delivered_at: string | null;
}

/** One event for the outbox to write. */
export interface OutboxEvent {
  tenant_id: string;
  event_type: string;
  /** `msg_<ulid>_`: each delivery's id is this and its webhook's. */
  id_prefix: string;
  /** `{type, timestamp, data}` */
  body: string;
  created_at: string;
  /** The delivery jobs' kind and time (epoch ms). */
  job_kind: string;
  now: number;
}

export interface AttemptOutcome {
  status: DeliveryStatus;
  response_status: number | null;
  response_ms: number | null;
  error: string | null;
  at: string;
}

export class WebhooksRepo {
  constructor(private readonly db: Database) {}

  async insert(row: WebhookRow): Promise<void> {
    await this.db.run(sql`INSERT INTO webhooks (id, tenant_id, url, events, secret, created_at)
      VALUES (${row.id}, ${row.tenant_id}, ${row.url}, ${row.events}, ${row.secret}, ${row.created_at})`);
  }

  async list(tenantId: string): Promise<WebhookRow[]> {
    return await this.db.all(sql<WebhookRow>`SELECT * FROM webhooks WHERE tenant_id = ${tenantId} ORDER BY created_at, id`);
  }

  async get(tenantId: string, id: string): Promise<WebhookRow | undefined> {
    return await this.db.one(sql<WebhookRow>`SELECT * FROM webhooks WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM webhooks WHERE tenant_id = ${tenantId} AND id = ${id}`)).changes > 0;
  }

  /**
   * The outbox's write for one event: a pending delivery for each of the tenant's webhooks
   * subscribed to its type, and the job (`job_kind`, payload `{"delivery_id": …}`) that sends
   * it. The webhooks are picked in SQL, so the write is given to later(): in a PostgreSQL
   * transaction it goes with the next statement and costs no round trip, whether the tenant
   * has webhooks or not. A delivery's id is the event's prefix and its webhook's id without
   * `whk_` (`msg_<event>_<webhook>`): unique, and sorted in the order of the events. `written` hears how
   * many deliveries (once sent, before the commit).
   */
  async insertDeliveriesLater(e: OutboxEvent, written: (deliveries: number) => void): Promise<void> {
    const subscribed = this.db.engine === 'postgres'
      ? sql`w.tenant_id = ${e.tenant_id} AND EXISTS (SELECT 1 FROM json_array_elements_text(w.events::json) AS t(name) WHERE t.name = ${e.event_type})`
      : sql`w.tenant_id = ${e.tenant_id} AND EXISTS (SELECT 1 FROM json_each(w.events) t WHERE t.value = ${e.event_type})`;
    const deliveries = sql`INSERT INTO webhook_deliveries (id, tenant_id, webhook_id, event_type, body, status, attempts, created_at)
      SELECT ${e.id_prefix} || substr(w.id, 5), w.tenant_id, w.id, ${e.event_type}, ${e.body}, 'pending', 0, ${e.created_at}
      FROM webhooks w WHERE ${subscribed} ORDER BY w.created_at, w.id`;
    // The job that sends each: no dedupe key, so it meets no conflict.
    if (this.db.engine === 'postgres') {
      const payload = sql`'{"delivery_id":' || to_json(delivery.id)::text || '}'`;
      await this.db.later(sql`WITH delivery AS (${deliveries} RETURNING id) ${insertJobsFrom(e.tenant_id, e.job_kind, payload, sql`FROM delivery ORDER BY delivery.id`, e.now)}`, (r) =>
        written(r.changes),
      );
      return;
    }
    // SQLite has no data-modifying CTE: two statements (no round trip there), one transaction.
    const payload = sql`json_object('delivery_id', ${e.id_prefix} || substr(w.id, 5))`;
    const jobs = insertJobsFrom(e.tenant_id, e.job_kind, payload, sql`FROM webhooks w WHERE ${subscribed} ORDER BY w.created_at, w.id`, e.now);
    const both = async () => {
      await this.db.later(deliveries);
      await this.db.later(jobs, (r) => written(r.changes));
    };
    await (this.db.inTransaction ? both() : this.db.withTx(both));
  }

  async delivery(tenantId: string, id: string): Promise<DeliveryRow | undefined> {
    return await this.db.one(sql<DeliveryRow>`SELECT * FROM webhook_deliveries WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  /** A webhook's deliveries, newest first. */
  async deliveries(tenantId: string, webhookId: string, limit: number): Promise<DeliveryRow[]> {
    return await this.db.all(
      sql<DeliveryRow>`SELECT * FROM webhook_deliveries WHERE tenant_id = ${tenantId} AND webhook_id = ${webhookId} ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
    );
  }

  async recordAttempt(tenantId: string, id: string, o: AttemptOutcome): Promise<void> {
    // delivered_at is stamped only by a delivered attempt; which one that is, the code knows.
    const deliveredAt = o.status === 'delivered' ? sql`${o.at}` : sql`delivered_at`;
    await this.db.run(sql`UPDATE webhook_deliveries SET status = ${o.status}, attempts = attempts + 1, response_status = ${o.response_status},
        response_ms = ${o.response_ms}, error = ${o.error}, last_attempt_at = ${o.at}, delivered_at = ${deliveredAt}
      WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  /** Replay: the delivery goes back to pending (its log keeps the earlier attempts' count). */
  async reopen(tenantId: string, id: string): Promise<void> {
    await this.db.run(sql`UPDATE webhook_deliveries SET status = 'pending', error = NULL WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }
}
