// Webhook subscriptions and the delivery log (the outbox rows the delivery job sends).
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

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

  async insertDelivery(row: Pick<DeliveryRow, 'id' | 'tenant_id' | 'webhook_id' | 'event_type' | 'body' | 'created_at'>): Promise<void> {
    await this.db.run(sql`INSERT INTO webhook_deliveries (id, tenant_id, webhook_id, event_type, body, status, attempts, created_at)
      VALUES (${row.id}, ${row.tenant_id}, ${row.webhook_id}, ${row.event_type}, ${row.body}, 'pending', 0, ${row.created_at})`);
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
