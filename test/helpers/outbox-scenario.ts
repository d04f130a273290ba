// The webhook outbox on either engine (run on SQLite by test/foundation/repo-scenarios.test.ts,
// on PostgreSQL by test/postgres/pg-db.test.ts): the subscribed webhooks are picked in SQL,
// each gets one delivery and one job per event, and the queue is woken after the commit only
// when a job was written.
import { expect } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { Database as Db } from '../../src/db/store/contract.js';
import { sql } from '../../src/db/store/sql.js';
import { TenantsRepo } from '../../src/repos/tenants.repo.js';
import { type DeliveryRow, WebhooksRepo } from '../../src/repos/webhooks.repo.js';
import { WEBHOOK_DELIVER_JOB, WebhookOutbox } from '../../src/services/webhooks/outbox.js';

const AT = '2026-11-29T10:00:00.000Z';

export async function outboxScenario(db: Db): Promise<void> {
  const tenants = new TenantsRepo(db);
  await tenants.insert({ id: 'ten_a', name: 'alpha', created_at: AT });
  await tenants.insert({ id: 'ten_b', name: 'beta', created_at: AT });
  const hooks = new WebhooksRepo(db);
  const hook = async (id: string, tenant: string, events: string[], created: string) =>
    await hooks.insert({ id, tenant_id: tenant, url: 'https://example.com/hook', events: JSON.stringify(events), secret: 'whsec_x', created_at: created });
  await hook('whk_01created', 'ten_a', ['node.created', 'node.deleted'], '2026-11-29T09:00:01.000Z');
  await hook('whk_02updated', 'ten_a', ['node.updated'], '2026-11-29T09:00:02.000Z');
  await hook('whk_03created', 'ten_a', ['node.created'], '2026-11-29T09:00:03.000Z');
  // Names that contain, or pattern-match, an event's name are not its name.
  await hook('whk_04lookalike', 'ten_a', ['node_created', 'node.created.x', 'xnode.deleted'], '2026-11-29T09:00:04.000Z');
  await hook('whk_05other', 'ten_b', ['node.created', 'node.deleted'], '2026-11-29T09:00:05.000Z');

  const wakes: boolean[] = [];
  const queue = {
    enqueueInTx: async () => {},
    wakeAfterCommit: (queued: () => boolean = () => true) => db.afterCommit(() => void wakes.push(queued())),
  };
  const outbox = new WebhookOutbox(hooks, queue, new ManualClock(Date.parse(AT)));
  const deliveries = async () => await db.all(sql<DeliveryRow>`SELECT * FROM webhook_deliveries ORDER BY id`);
  const jobs = async () =>
    (await db.all(sql<{ tenant_id: string; kind: string; payload: string; dedupe_key: string | null; status: string; run_after: number }>`
      SELECT tenant_id, kind, payload, dedupe_key, status, run_after FROM jobs ORDER BY id`)).map((j) => ({ ...j, run_after: Number(j.run_after) }));

  // In the caller's transaction, with its write: the two webhooks that hear node.created.
  const node = { id: 'nod_1', title: 'Soil', tags: ['garden'], status: 'raw' as const };
  await db.withTx(async () => {
    await db.run(sql`UPDATE tenants SET name = 'alpha' WHERE id = 'ten_a'`);
    await outbox.emit('ten_a', 'node.created', node);
  });
  const created = await deliveries();
  expect(created.map((d) => [d.tenant_id, d.webhook_id, d.event_type, d.status, Number(d.attempts), d.created_at])).toEqual([
    ['ten_a', 'whk_01created', 'node.created', 'pending', 0, AT],
    ['ten_a', 'whk_03created', 'node.created', 'pending', 0, AT],
  ]);
  for (const d of created) expect(JSON.parse(d.body)).toEqual({ type: 'node.created', timestamp: AT, data: node });
  // msg_<the event's ulid>_<the webhook's id without whk_>: one event, two distinct ids.
  expect(created[0].id).toMatch(/^msg_[0-9a-z]{26}_01created$/);
  expect(created[1].id).toBe(`${created[0].id.slice(0, 31)}03created`);
  expect(await jobs()).toEqual(
    created.map((d) => ({
      tenant_id: 'ten_a', kind: WEBHOOK_DELIVER_JOB, payload: JSON.stringify({ delivery_id: d.id }), dedupe_key: null, status: 'queued', run_after: Date.parse(AT),
    })),
  );
  expect(wakes).toEqual([true]);

  // One webhook hears node.updated; none hears highlight.created: nothing written, the queue left asleep.
  await db.withTx(async () => await outbox.emit('ten_a', 'node.updated', node));
  await db.withTx(async () => await outbox.emit('ten_a', 'highlight.created', { node_id: 'nod_1', highlight_id: 'hl_1', text: 'soil' }));
  expect((await deliveries()).map((d) => [d.webhook_id, d.event_type])).toEqual([
    ['whk_01created', 'node.created'], ['whk_03created', 'node.created'], ['whk_02updated', 'node.updated'],
  ]);
  expect(await jobs()).toHaveLength(3);
  expect(wakes).toEqual([true, true, false]);

  // A rollback takes the deliveries and their jobs with it, and wakes nothing.
  await expect(db.withTx(async () => {
    await outbox.emit('ten_a', 'node.created', node);
    await db.value(sql`SELECT 1`); // on PostgreSQL the held write has been sent by now
    throw new Error('changed my mind');
  })).rejects.toThrow('changed my mind');
  expect(await deliveries()).toHaveLength(3);
  expect(await jobs()).toHaveLength(3);
  expect(wakes).toEqual([true, true, false]);

  // Outside a transaction the outbox's write is still all or nothing, and the queue is woken.
  await outbox.emit('ten_b', 'node.deleted', { id: 'nod_9' });
  const [other] = (await deliveries()).filter((d) => d.tenant_id === 'ten_b');
  expect([other.webhook_id, other.event_type, JSON.parse(other.body).data]).toEqual(['whk_05other', 'node.deleted', { id: 'nod_9' }]);
  expect((await jobs()).filter((j) => j.tenant_id === 'ten_b').map((j) => j.payload)).toEqual([JSON.stringify({ delivery_id: other.id })]);
  expect(wakes).toEqual([true, true, false, true]);

  // A webhook's log, newest first: the ids sort in the order of the events.
  await db.withTx(async () => await outbox.emit('ten_a', 'node.deleted', { id: 'nod_1' }));
  expect((await hooks.deliveries('ten_a', 'whk_01created', 10)).map((d) => d.event_type)).toEqual(['node.deleted', 'node.created']);
  expect(await jobs()).toHaveLength(5);
}
