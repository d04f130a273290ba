// Webhook subscriptions and the delivery log (the outbox rows the delivery job sends).
import type { Database } from '../db/store/contract.js';
import { statementCache, type Prepare } from './statement-cache.js';

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
  private readonly prepare: Prepare;

  constructor(db: Database) {
    this.prepare = statementCache(db);
  }

  async insert(row: WebhookRow): Promise<void> {
    await this.prepare('INSERT INTO webhooks (id, tenant_id, url, events, secret, created_at) VALUES (@id, @tenant_id, @url, @events, @secret, @created_at)').run(row);
  }

  async list(tenantId: string): Promise<WebhookRow[]> {
    return await this.prepare('SELECT * FROM webhooks WHERE tenant_id = ? ORDER BY created_at, id').all(tenantId) as WebhookRow[];
  }

  async get(tenantId: string, id: string): Promise<WebhookRow | undefined> {
    return await this.prepare('SELECT * FROM webhooks WHERE tenant_id = ? AND id = ?').get(tenantId, id) as WebhookRow | undefined;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return (await this.prepare('DELETE FROM webhooks WHERE tenant_id = ? AND id = ?').run(tenantId, id)).changes > 0;
  }

  async insertDelivery(row: Pick<DeliveryRow, 'id' | 'tenant_id' | 'webhook_id' | 'event_type' | 'body' | 'created_at'>): Promise<void> {
    await this.prepare(
      `INSERT INTO webhook_deliveries (id, tenant_id, webhook_id, event_type, body, status, attempts, created_at)
       VALUES (@id, @tenant_id, @webhook_id, @event_type, @body, 'pending', 0, @created_at)`,
    ).run(row);
  }

  async delivery(tenantId: string, id: string): Promise<DeliveryRow | undefined> {
    return await this.prepare('SELECT * FROM webhook_deliveries WHERE tenant_id = ? AND id = ?').get(tenantId, id) as DeliveryRow | undefined;
  }

  /** A webhook's deliveries, newest first. */
  async deliveries(tenantId: string, webhookId: string, limit: number): Promise<DeliveryRow[]> {
    return await this.prepare('SELECT * FROM webhook_deliveries WHERE tenant_id = ? AND webhook_id = ? ORDER BY created_at DESC, id DESC LIMIT ?').all(tenantId, webhookId, limit) as DeliveryRow[];
  }

  async recordAttempt(tenantId: string, id: string, o: AttemptOutcome): Promise<void> {
    await this.prepare(
      `UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1, response_status = @response_status, response_ms = @response_ms,
         error = @error, last_attempt_at = @at, delivered_at = CASE WHEN @status = 'delivered' THEN @at ELSE delivered_at END
       WHERE tenant_id = @tenant_id AND id = @id`,
    ).run({ ...o, tenant_id: tenantId, id });
  }

  /** Replay: the delivery goes back to pending (its log keeps the earlier attempts' count). */
  async reopen(tenantId: string, id: string): Promise<void> {
    await this.prepare("UPDATE webhook_deliveries SET status = 'pending', error = NULL WHERE tenant_id = ? AND id = ?").run(tenantId, id);
  }
}
