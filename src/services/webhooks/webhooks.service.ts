// Webhook subscriptions: create (the secret is shown once), list, get, delete, the delivery
// log and replay. Where a webhook may point is decided here: HTTPS, and never this machine or
// its private network unless the operator allows private fetches (then plain HTTP too, for
// local receivers). Names that resolve privately are refused again at delivery time.
import { isIP } from 'node:net';
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { newId } from '../../ids.js';
import { isPrivateAddress } from '../../ingest/net-guard.js';
import type { DeliveryRow, WebhookRow, WebhooksRepo } from '../../repos/webhooks.repo.js';
import type { z } from '@hono/zod-openapi';
import type { WebhookEventType } from '../../schemas/webhook-events.js';
import type { WebhookDelivery } from '../../schemas/webhooks.js';
import type { WebhookOutbox } from './outbox.js';
import { newWebhookSecret } from './signing.js';

export interface WebhookDto {
  id: string;
  url: string;
  events: WebhookEventType[];
  created_at: string;
}

/** A delivery as the API shows it: the response schema's own type. */
export type DeliveryDto = z.infer<typeof WebhookDelivery>;

const toDto = (r: WebhookRow): WebhookDto => ({ id: r.id, url: r.url, events: JSON.parse(r.events), created_at: r.created_at });

const toDelivery = (r: DeliveryRow): DeliveryDto => ({
  id: r.id, webhook_id: r.webhook_id, event_type: r.event_type, status: r.status, attempts: r.attempts,
  response_status: r.response_status, response_ms: r.response_ms, error: r.error, created_at: r.created_at,
  last_attempt_at: r.last_attempt_at, delivered_at: r.delivered_at, payload: JSON.parse(r.body),
});

export class WebhooksService {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: WebhooksRepo,
    private readonly outbox: WebhookOutbox,
    private readonly clock: Clock,
    private readonly allowPrivate: boolean,
  ) {}

  async create(tenantId: string, input: { url: string; events: WebhookEventType[] }): Promise<WebhookDto & { secret: string }> {
    this.checkUrl(input.url);
    const row: WebhookRow = {
      id: newId('whk'), tenant_id: tenantId, url: input.url, events: JSON.stringify([...new Set(input.events)]),
      secret: newWebhookSecret(), created_at: iso(this.clock.now()),
    };
    await this.repo.insert(row);
    return { ...toDto(row), secret: row.secret };
  }

  async list(tenantId: string): Promise<WebhookDto[]> {
    return (await this.repo.list(tenantId)).map(toDto);
  }

  async get(tenantId: string, id: string): Promise<WebhookDto> {
    return toDto(await this.row(tenantId, id));
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!await this.repo.delete(tenantId, id)) throw new NotFoundError('Webhook');
  }

  async deliveries(tenantId: string, id: string, limit = 100): Promise<DeliveryDto[]> {
    await this.row(tenantId, id);
    return (await this.repo.deliveries(tenantId, id, limit)).map(toDelivery);
  }

  /** Sends a delivery again, with the same webhook-id (receivers that already have it ignore it). */
  async replay(tenantId: string, webhookId: string, deliveryId: string): Promise<DeliveryDto> {
    return await this.tx.withTx(async () => {
      const d = await this.repo.delivery(tenantId, deliveryId);
      if (!d || d.webhook_id !== webhookId) throw new NotFoundError('Delivery');
      await this.repo.reopen(tenantId, deliveryId);
      await this.outbox.enqueue(tenantId, deliveryId);
      return toDelivery((await this.repo.delivery(tenantId, deliveryId))!);
    });
  }

  private async row(tenantId: string, id: string): Promise<WebhookRow> {
    const r = await this.repo.get(tenantId, id);
    if (!r) throw new NotFoundError('Webhook');
    return r;
  }

  private checkUrl(raw: string): void {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      throw new ValidationError('url: not a URL', [{ path: 'url', message: 'not a URL' }]);
    }
    const bad = (message: string) => new ValidationError(`url: ${message}`, [{ path: 'url', message }]);
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && this.allowPrivate)) throw bad('must be an https:// URL');
    if (u.username || u.password) throw bad('must not carry credentials');
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const local = host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && isPrivateAddress(host));
    if (local && !this.allowPrivate) throw bad('private and loopback addresses are refused (the operator can allow them with RHIZOME_ALLOW_PRIVATE_FETCH=1)');
  }
}
