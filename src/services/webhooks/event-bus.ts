// Who hears an event: the webhook outbox (other tools) and in-process listeners (a feed's
// PARA filing, rules), all inside the transaction that emits it, so a change and what
// follows from it commit together. A listener that throws undoes the change: listeners
// check before they write rather than fail.
import type { EventSink, WebhookEventData, WebhookEventType } from '../../schemas/webhook-events.js';

type Listener<T extends WebhookEventType> = (tenantId: string, data: WebhookEventData[T]) => void | Promise<void>;

export class EventBus implements EventSink {
  // biome-ignore lint/suspicious/noExplicitAny: one map holds every event type's listeners; on() and emit() keep each one typed
  private readonly listeners = new Map<WebhookEventType, Array<Listener<any>>>();

  constructor(private readonly outbox: EventSink) {}

  on<T extends WebhookEventType>(type: T, fn: Listener<T>): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }

  /** Each listener in turn, then the outbox, all awaited: the emitting transaction commits after them. */
  async emit<T extends WebhookEventType>(tenantId: string, type: T, data: WebhookEventData[T]): Promise<void> {
    for (const fn of this.listeners.get(type) ?? []) await fn(tenantId, data);
    await this.outbox.emit(tenantId, type, data);
  }
}
