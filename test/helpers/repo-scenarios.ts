// Repository scenarios run unchanged on both backends: on SQLite by
// test/foundation/repo-scenarios.test.ts, on PostgreSQL by test/postgres/pg-db.test.ts.
// Each takes the engine's store (the asynchronous contract, src/db/store/contract.ts).
import { raw } from './raw.js';
import { expect } from 'vitest';
import { sql } from '../../src/db/store/sql.js';
import type { Database as Db } from '../../src/db/store/contract.js';
import { ApiKeysRepo } from '../../src/repos/api-keys.repo.js';
import { CalibrationsRepo } from '../../src/repos/calibrations.repo.js';
import { GraphHealthRepo } from '../../src/repos/graph-health.repo.js';
import { HealthHistoryRepo } from '../../src/repos/health-history.repo.js';
import { ImportsRepo } from '../../src/repos/imports.repo.js';
import { JobsRepo } from '../../src/repos/jobs.repo.js';
import { LinksRepo } from '../../src/repos/links.repo.js';
import { NodesRepo, type NodeKeywordIndex } from '../../src/repos/nodes.repo.js';
import { ParaRepo } from '../../src/repos/para.repo.js';
import { TagsRepo } from '../../src/repos/tags.repo.js';
import { TenantsRepo } from '../../src/repos/tenants.repo.js';
import { TokensRepo } from '../../src/repos/tokens.repo.js';
import { UsersRepo } from '../../src/repos/users.repo.js';
import type { VectorsApi } from '../../src/repos/vectors.repo.js';

/** The tenant most scenarios work in. */
async function addAlpha(db: Db): Promise<void> {
  await new TenantsRepo(db).insert({ id: 'ten_a', name: 'alpha', created_at: '2026-11-23T09:00:00.000Z' });
}

/** What a refused statement throws on the backend under test. */
export type ErrorClass = new (...args: never[]) => Error;

export async function tenantsScenario(db: Db, refused: ErrorClass): Promise<void> {
  const tenants = new TenantsRepo(db);
  expect(await tenants.count()).toBe(0);
  await tenants.insert({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T10:00:00.000Z' });
  await tenants.insert({ id: 'ten_a', name: 'alpha', created_at: '2026-11-23T09:00:00.000Z' });
  expect(await tenants.count()).toBe(2);
  expect(await tenants.findByName('beta')).toEqual({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T10:00:00.000Z', status: 'active', suspended_at: null });
  expect(await tenants.findById('ten_zzz')).toBeUndefined();
  expect((await tenants.list()).map((t) => t.name)).toEqual(['alpha', 'beta']);
  await tenants.setMetaOnce('secret', 'first');
  await tenants.setMetaOnce('secret', 'second');
  expect(await tenants.getMeta('secret')).toBe('first');
  await expect(tenants.insert({ id: 'ten_c', name: 'beta', created_at: '2026-11-23T11:00:00.000Z' })).rejects.toThrow(refused);
}

export async function apiKeysScenario(db: Db): Promise<void> {
  await addAlpha(db);
  const keys = new ApiKeysRepo(db);
  const hmac = Buffer.from('00ff10ab'.repeat(8), 'hex');
  await keys.insert({ id: 'key_1', tenant_id: 'ten_a', name: 'laptop', secret_hmac: hmac, created_at: '2026-11-23T09:00:01.000Z' });
  const found = (await keys.findActive('key_1'))!;
  expect(Buffer.isBuffer(found.secret_hmac)).toBe(true);
  expect(found.secret_hmac.equals(hmac)).toBe(true);
  expect(found.tenant_status).toBe('active'); // read with the key: one statement per request
  await keys.touch('ten_a', 'key_1', '2026-11-23T09:05:00.000Z');
  expect(await keys.list('ten_a')).toEqual([{ id: 'key_1', name: 'laptop', created_at: '2026-11-23T09:00:01.000Z', last_used_at: '2026-11-23T09:05:00.000Z' }]);
  expect(await keys.revoke('ten_other', 'key_1', '2026-11-23T10:00:00.000Z')).toBe(false); // another tenant's key
  expect(await keys.revoke('ten_a', 'key_1', '2026-11-23T10:00:00.000Z')).toBe(true);
  expect(await keys.revoke('ten_a', 'key_1', '2026-11-23T10:00:00.000Z')).toBe(false);
  expect(await keys.findActive('key_1')).toBeUndefined();
}

export async function transactionScenario(db: Db, refused: ErrorClass): Promise<void> {
  const tenants = new TenantsRepo(db);
  const add = async (name: string) => await tenants.insert({ id: `ten_${name}`, name, created_at: '2026-11-23T09:00:00.000Z' });
  const names = async () => (await tenants.list()).map((t) => t.name).sort();
  const both = async (a: string, b: string) =>
    await db.withTx(async () => {
      await add(a);
      await add(b);
    });
  await both('one', 'two');
  await expect(both('three', 'one')).rejects.toThrow(refused); // 'one' exists: 'three' is undone too
  expect(await names()).toEqual(['one', 'two']);

  // A nested unit of work is a savepoint: its failure undoes only its part, and its
  // after-commit hooks are dropped; the outer one's run once it has committed.
  const ran: string[] = [];
  await db.withTx(async () => {
    await add('four');
    db.afterCommit(() => void ran.push('outer'));
    await expect(
      db.withTx(async () => {
        db.afterCommit(() => void ran.push('inner'));
        await add('five');
        await add('one');
      }),
    ).rejects.toThrow(refused);
    expect(ran).toEqual([]);
    expect(db.inTransaction).toBe(true);
  });
  expect(ran).toEqual(['outer']);
  expect(db.inTransaction).toBe(false);
  expect(await names()).toEqual(['four', 'one', 'two']);

  // Two transactions started together never see each other's uncommitted rows, and a read
  // outside both sees only what has committed.
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const slow = db.withTx(async () => {
    await add('six');
    await gate;
    await add('seven');
  });
  const fast = db.withTx(async () => await add('eight'));
  const outside = names();
  release();
  await Promise.all([slow, fast]);
  const seen = await outside;
  expect(seen.includes('six')).toBe(seen.includes('seven')); // all of the slow one's rows, or none
  expect(await names()).toEqual(['eight', 'four', 'one', 'seven', 'six', 'two']);
}

/**
 * later(): a write nobody reads the outcome of. Whenever it is sent (PostgreSQL: with the
 * transaction's next statement), it is part of its transaction: kept when it commits, gone
 * when it rolls back or when the write itself fails, which fails the transaction.
 */
export async function laterScenario(db: Db, refused: ErrorClass): Promise<void> {
  const tenants = new TenantsRepo(db);
  const row = (name: string) => sql`INSERT INTO tenants (id, name, created_at) VALUES (${`ten_${name}`}, ${name}, '2026-11-23T09:00:00.000Z')`;
  const names = async () => (await tenants.list()).map((t) => t.name).sort();
  await db.later(row('alone')); // outside a transaction: at once
  expect(await names()).toEqual(['alone']);
  await db.withTx(async () => {
    await db.later(row('held'));
    await db.later(row('held too'));
  });
  expect(await names()).toEqual(['alone', 'held', 'held too']);
  // Read inside its transaction, a held write is already there: it goes before the read.
  await db.withTx(async () => {
    await db.later(row('seen'));
    expect((await tenants.list()).map((t) => t.name)).toContain('seen');
  });
  await expect(db.withTx(async () => {
    await tenants.insert({ id: 'ten_undone', name: 'undone', created_at: '2026-11-23T09:00:00.000Z' });
    await db.later(row('dropped'));
    throw new Error('changed my mind');
  })).rejects.toThrow('changed my mind');
  // A held write that fails (a duplicate id) fails the commit it went with; nothing of the transaction stays.
  await expect(db.withTx(async () => {
    await db.later(row('before'));
    await db.later(row('alone'));
  })).rejects.toThrow(refused);
  // Under a savepoint that is rolled back, a held write goes with it.
  await db.withTx(async () => {
    await db.later(row('outer'));
    await expect(db.withTx(async () => {
      await db.later(row('inner'));
      throw new Error('inner fails');
    })).rejects.toThrow('inner fails');
  });
  expect(await names()).toEqual(['alone', 'held', 'held too', 'outer', 'seen']);
  // `sent` hears how many rows the write changed once it has run (PostgreSQL: with the COMMIT here).
  let heard: number | undefined;
  await db.withTx(async () => {
    await db.later(sql`UPDATE tenants SET name = name WHERE id IN ('ten_held', 'ten_seen')`, (r) => (heard = r.changes));
  });
  expect(heard).toBe(2);
}

/** `make`: the engine's jobs repository (PostgreSQL's claims with SKIP LOCKED: PgJobsRepo). */
export async function jobsScenario(db: Db, make: (db: Db) => JobsRepo = (d) => new JobsRepo(d)): Promise<void> {
  await addAlpha(db);
  const jobs = make(db);
  const now = 1_763_888_400_000;
  expect(await jobs.insert('ten_a', 'embed', { node: 1 }, 'embed:1', now, now)).toBe(true);
  expect(await jobs.insert('ten_a', 'embed', { node: 1 }, 'embed:1', now, now)).toBe(false); // already queued
  expect(await jobs.insert('ten_a', 'embed', { node: 2 }, 'embed:2', now, now)).toBe(true);
  expect(await jobs.insert('ten_a', 'capture', { id: 'c' }, null, now + 60_000, now)).toBe(true); // not yet due
  expect(await jobs.depth()).toBe(3);
  expect(await jobs.nextRunAt()).toBe(now);
  expect(await jobs.claim(['capture'], now, () => 8)).toEqual([]);
  const claimed = await jobs.claim(['embed', 'capture'], now, () => 8);
  expect(claimed.map((j) => [j.kind, JSON.parse(j.payload).node, j.status, j.attempts])).toEqual([
    ['embed', 1, 'running', 1],
    ['embed', 2, 'running', 1],
  ]);
  expect(await jobs.pendingOfKind('ten_a', 'embed')).toBe(2);
  // While embed:1 runs, an identical job may be queued; its retry then gives way to it.
  expect(await jobs.insert('ten_a', 'embed', { node: 1 }, 'embed:1', now, now)).toBe(true);
  await jobs.retry(claimed[0].id, now + 1000, 'model busy', now);
  await jobs.retryTransient(claimed[1].id, now + 1000, 'disk full', now);
  expect(await jobs.depthOf('ten_a')).toBe(3);
  const again = await jobs.claim(['embed'], now + 1000, () => 8);
  expect(again.map((j) => [JSON.parse(j.payload).node, j.attempts])).toEqual([[2, 1], [1, 1]]);
  await jobs.complete(again[0].id);
  expect(await jobs.requeueRunning(now + 2000)).toBe(1); // the process died with embed:1 running
  expect(await jobs.depth()).toBe(2);
  // Two identical jobs both running when the process died (the second queued while the first
  // ran, then claimed): requeued, they would collide on the dedupe index; the oldest stays.
  const first = await jobs.claim(['embed'], now + 60_000, () => 8);
  expect(first).toHaveLength(1);
  expect(await jobs.insert('ten_a', 'embed', { node: 1 }, 'embed:1', now, now)).toBe(true);
  const twin = await jobs.claim(['embed'], now + 60_000, () => 8);
  expect(twin).toHaveLength(1);
  expect(await jobs.requeueRunning(now + 61_000)).toBe(1);
  expect((await jobs.claim(['embed'], now + 61_000, () => 8)).map((j) => j.id)).toEqual([first[0].id]);
}

export async function tokensScenario(db: Db): Promise<void> {
  await addAlpha(db);
  await new UsersRepo(db).insert({ id: 'usr_1', tenant_id: 'ten_a', email: 'ada@example.org', created_at: '2026-11-23T09:00:00.000Z' });
  const tokens = new TokensRepo(db);
  const link = Buffer.alloc(32, 7);
  await tokens.addMagicLink({ token_hmac: link, tenant_id: 'ten_a', user_id: 'usr_1', expires_at: 2_000 });
  expect(await tokens.findMagicLink(link)).toMatchObject({ tenant_id: 'ten_a', user_id: 'usr_1', expires_at: 2_000, used_at: null });
  expect(await tokens.findMagicLink(Buffer.alloc(32, 8))).toBeUndefined();
  expect(await tokens.consumeMagicLink('ten_a', link, 1_000)).toBe(true);
  expect(await tokens.consumeMagicLink('ten_a', link, 1_001)).toBe(false); // once only
  const refresh = { id: 'rt_1', tenant_id: 'ten_a', user_id: 'usr_1', family_id: 'fam_1', token_hmac: Buffer.alloc(32, 9), created_at: 1_000, expires_at: 9_000, client_id: null };
  await tokens.addRefresh(refresh);
  expect((await tokens.findRefreshByHmac(refresh.token_hmac))?.token_hmac.equals(refresh.token_hmac)).toBe(true);
  expect(await tokens.markRefreshUsed('ten_a', 'rt_1', 1_500)).toBe(true);
  expect(await tokens.markRefreshUsed('ten_a', 'rt_1', 1_600)).toBe(false);
  expect(await tokens.familyRevoked('ten_a', 'fam_1')).toBe(false);
  await tokens.revokeFamily('ten_a', 'fam_1', 1_700);
  expect(await tokens.familyRevoked('ten_a', 'fam_1')).toBe(true);
  expect(await tokens.familyRevoked('ten_other', 'fam_1')).toBe(false);
}

/** Nodes written straight into the table (no keyword index: these scenarios do not search). */
async function addNodes(db: Db, tenantId: string, nodes: Array<{ seq: number; id: string; title: string; tags: string[] }>): Promise<void> {
  const ins = raw(db).prepare(
    `INSERT INTO nodes (seq, id, tenant_id, title, summary, body_markdown, tags, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, '', '', ?, 'raw', '2026-11-23T09:00:00.000Z', '2026-11-23T09:00:00.000Z')`,
  );
  for (const n of nodes) await ins.run(n.seq, n.id, tenantId, n.title, JSON.stringify(n.tags));
}

export async function linksAndTagsScenario(db: Db): Promise<void> {
  const tenants = new TenantsRepo(db);
  await tenants.insert({ id: 'ten_a', name: 'alpha', created_at: '2026-11-23T09:00:00.000Z' });
  await tenants.insert({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T09:00:00.000Z' });
  await addNodes(db, 'ten_a', [
    { seq: 1, id: 'nod_fungi', title: 'Fungi', tags: ['soil', 'biology'] },
    { seq: 2, id: 'nod_roots', title: 'Roots', tags: ['soil'] },
    { seq: 3, id: 'nod_carbon', title: 'Carbon', tags: ['climate', 'soil'] },
  ]);
  await addNodes(db, 'ten_b', [{ seq: 4, id: 'nod_other', title: 'Elsewhere', tags: ['soil'] }]);
  const links = new LinksRepo(db);
  expect(await links.nodeExists('ten_a', 'nod_fungi')).toBe(true);
  expect(await links.nodeExists('ten_b', 'nod_fungi')).toBe(false);
  expect([...await links.existingIds('ten_a', ['nod_roots', 'nod_other', 'nod_none'])]).toEqual(['nod_roots']);
  await links.upsert('ten_a', 'nod_fungi', 'nod_roots', 'related', '2026-11-23T10:00:00.000Z');
  await links.upsert('ten_a', 'nod_fungi', 'nod_carbon', 'supports', '2026-11-23T10:00:00.000Z');
  await links.upsert('ten_a', 'nod_fungi', 'nod_roots', 'part_of', '2026-11-23T11:00:00.000Z'); // retyped
  await links.upsert('ten_b', 'nod_fungi', 'nod_roots', 'contradicts', '2026-11-23T12:00:00.000Z'); // another tenant: no effect
  expect(await links.outgoing('ten_a', 'nod_fungi')).toEqual([
    { target_id: 'nod_carbon', type: 'supports' },
    { target_id: 'nod_roots', type: 'part_of' },
  ]);
  expect(await links.related('ten_a', 'nod_fungi', 1)).toEqual([{ id: 'nod_roots', title: 'Roots', summary: '', relationship_type: 'part_of' }]);
  expect((await links.edgesFrom('ten_a', ['nod_fungi', 'nod_roots'], 10)).map((e) => `${e.source_id}>${e.target_id}`)).toEqual(['nod_fungi>nod_carbon', 'nod_fungi>nod_roots']);
  await links.delete('ten_a', 'nod_fungi', 'nod_roots');
  expect((await links.outgoing('ten_a', 'nod_fungi')).map((l) => l.target_id)).toEqual(['nod_carbon']);

  const tags = new TagsRepo(db);
  expect(await tags.counts('ten_a')).toEqual([
    { name: 'soil', count: 3 },
    { name: 'biology', count: 1 },
    { name: 'climate', count: 1 },
  ]);
  expect((await tags.nodesWith('ten_a', 'soil')).map((n) => n.id)).toEqual(['nod_fungi', 'nod_roots', 'nod_carbon']);
  expect(await tags.nodesWith('ten_a', 'nothing')).toEqual([]);
}

export async function paraScenario(db: Db): Promise<void> {
  await addAlpha(db);
  await addNodes(db, 'ten_a', [
    { seq: 1, id: 'nod_1', title: 'One', tags: [] },
    { seq: 2, id: 'nod_2', title: 'Two', tags: [] },
    { seq: 3, id: 'nod_3', title: 'Three', tags: [] },
  ]);
  const para = new ParaRepo(db);
  const at = '2026-11-23T09:00:00.000Z';
  await para.insert({ id: 'par_r', tenant_id: 'ten_a', category: 'resources', label: 'recipes', description: '', slug: 'recipes', created_at: at });
  await para.insert({ id: 'par_b', tenant_id: 'ten_a', category: 'projects', label: 'beta launch', description: '', slug: 'beta-launch', created_at: at });
  await para.insert({ id: 'par_a', tenant_id: 'ten_a', category: 'projects', label: 'Alpha', description: 'first', slug: 'alpha', created_at: at });
  await para.insert({ id: 'par_a2', tenant_id: 'ten_a', category: 'areas', label: 'Alpha care', description: '', slug: 'alpha-2', created_at: at });
  // Projects, then areas, then resources; by label whatever its case.
  expect((await para.list('ten_a', {})).map((i) => i.id)).toEqual(['par_a', 'par_b', 'par_a2', 'par_r']);
  expect((await para.list('ten_a', { category: 'projects' })).map((i) => i.id)).toEqual(['par_a', 'par_b']);
  expect(await para.get('ten_a', 'par_a')).toMatchObject({ label: 'Alpha', description: 'first', status: 'active', slug: 'alpha' });
  expect((await para.slugsLike('ten_a', 'alpha', null)).sort()).toEqual(['alpha', 'alpha-2']);
  expect(await para.slugsLike('ten_a', 'alpha', 'par_a')).toEqual(['alpha-2']);
  await para.update('ten_a', { ...(await para.get('ten_a', 'par_r'))!, status: 'archived', updated_at: '2026-11-23T10:00:00.000Z' });
  expect((await para.list('ten_a', { status: 'archived' })).map((i) => i.id)).toEqual(['par_r']);
  expect((await para.activeItems('ten_a')).map((i) => i.id)).toEqual(['par_a', 'par_a2', 'par_b']);
  expect(await para.hasActiveItems('ten_a')).toBe(true);

  expect(await para.orphanIds('ten_a')).toEqual(['nod_1', 'nod_2', 'nod_3']);
  const auto = { nodeId: 'nod_1', itemId: 'par_a', score: 0.61, method: 'centroid', model: 'use-lite' };
  expect(await para.insertAuto('ten_a', auto, at)).toBe(true);
  expect(await para.insertAuto('ten_a', { ...auto, score: 0.9 }, at)).toBe(false); // filed already
  await raw(db).prepare(`INSERT INTO node_para (tenant_id, node_id, para_item_id, source, created_at) VALUES (?, ?, ?, 'user', ?)`).run('ten_a', 'nod_2', 'par_a', '2026-11-23T09:30:00.000Z');
  expect(await para.isOrphan('ten_a', 'nod_1')).toBe(false);
  expect(await para.orphanIds('ten_a')).toEqual(['nod_3']);
  expect(await para.userNodeIds('ten_a', 'par_a', 10)).toEqual(['nod_2']); // the automatic filing is not a sample
  expect(await para.nodeCounts('ten_a')).toEqual(new Map([['par_a', 2]]));
  expect(await para.hideAssociations('ten_a', 'par_a')).toBe(2);
  expect(await para.orphanIds('ten_a')).toEqual(['nod_1', 'nod_2', 'nod_3']);
  expect(await para.restoreAssociations('ten_a', 'par_a')).toBe(2);
  expect(await para.rateLimitLastAt('ten_a', 'rescan')).toBeNull();
  await para.setRateLimit('ten_a', 'rescan', 1_000);
  await para.setRateLimit('ten_a', 'rescan', 2_000);
  expect(await para.rateLimitLastAt('ten_a', 'rescan')).toBe(2_000);
}

export async function importsAndCalibrationsScenario(db: Db): Promise<void> {
  await addAlpha(db);
  await addNodes(db, 'ten_a', [
    { seq: 1, id: 'nod_1', title: 'One', tags: [] },
    { seq: 2, id: 'nod_2', title: 'Two', tags: [] },
  ]);
  const imports = new ImportsRepo(db);
  await imports.insert({ id: 'imp_1', tenant_id: 'ten_a', kind: 'markdown', status: 'running', total: 2, created_at: '2026-11-23T09:00:00.000Z' });
  await imports.upsertKey('ten_a', 'vault:notes/one.md', 'nod_1', 'h1', '2026-11-23T09:00:01.000Z');
  await imports.upsertKey('ten_a', 'vault:notes/copy.md', 'nod_2', 'h1', '2026-11-23T09:00:02.000Z');
  await imports.upsertKey('ten_a', 'vault:notes/one.md', 'nod_1', 'h2', '2026-11-23T09:00:03.000Z'); // the file changed
  expect(await imports.key('ten_a', 'vault:notes/one.md')).toEqual({ node_id: 'nod_1', content_hash: 'h2' });
  expect(await imports.key('ten_b', 'vault:notes/one.md')).toBeUndefined();
  expect(await imports.byHash('ten_a', 'h1')).toEqual([{ node_id: 'nod_2', content_hash: 'h1', key: 'vault:notes/copy.md' }]);
  await imports.progress('ten_a', 'imp_1', '{"created":1}', '[]');
  expect(await imports.get('ten_a', 'imp_1')).toMatchObject({ status: 'running', total: 2, counts: '{"created":1}', finished_at: null });
  await imports.insert({ id: 'imp_2', tenant_id: 'ten_a', kind: 'bookmarks', status: 'running', total: 0, created_at: '2026-11-23T09:01:00.000Z' });
  await imports.finish('ten_a', 'imp_2', 'completed', '{}', '[]', null, '2026-11-23T09:02:00.000Z');
  expect(await imports.interruptAll('2026-11-23T10:00:00.000Z')).toBe(1); // imp_1 was still running
  expect(await imports.get('ten_a', 'imp_1')).toMatchObject({ status: 'interrupted', finished_at: '2026-11-23T10:00:00.000Z' });
  expect(await imports.get('ten_a', 'imp_2')).toMatchObject({ status: 'completed' });

  const cals = new CalibrationsRepo(db);
  const scale = { floor: 0.3, ceiling: 0.8 } as never;
  expect(await cals.get('use-lite', 'set1')).toBeNull();
  await cals.put({ model_id: 'use-lite', query: scale, note: scale, set_hash: 'set1' }, '2026-11-23T09:00:00.000Z');
  expect(await cals.get('use-lite', 'set1')).toEqual({ model_id: 'use-lite', query: scale, note: scale, set_hash: 'set1' });
  await cals.put({ model_id: 'use-lite', query: scale, note: scale, set_hash: 'set2' }, '2026-11-23T10:00:00.000Z');
  expect(await cals.get('use-lite', 'set1')).toBeNull(); // a new calibration set replaced it
  expect((await cals.get('use-lite', 'set2'))?.set_hash).toBe('set2');
}

/** `keywords`: the engine's keyword index. */
export async function nodesScenario(db: Db, keywords: NodeKeywordIndex): Promise<void> {
  await addAlpha(db);
  await new TenantsRepo(db).insert({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T09:00:00.000Z' });
  const nodes = new NodesRepo(db, keywords);
  const row = (id: string, tenant: string, title: string, tags: string[], status: 'raw' | 'validated', at: string) => ({
    id, tenant_id: tenant, title, summary: '', body_markdown: `About ${title.toLowerCase()}.`, tags: JSON.stringify(tags), status, created_at: at, updated_at: at,
  });
  const s1 = await nodes.insert(row('nod_1', 'ten_a', 'Fungi', ['soil'], 'raw', '2026-11-20T09:00:00.000Z'));
  const s2 = await nodes.insert(row('nod_2', 'ten_a', 'Roots', ['soil', 'plants'], 'validated', '2026-11-21T09:00:00.000Z'));
  const s3 = await nodes.insert(row('nod_3', 'ten_a', 'Rivers', [], 'raw', '2026-11-22T09:00:00.000Z'));
  const s4 = await nodes.insert(row('nod_4', 'ten_b', 'Elsewhere', ['soil'], 'raw', '2026-11-22T09:00:00.000Z'));
  expect([s2 - s1, s3 - s2, s4 - s3]).toEqual([1, 1, 1]);
  expect(await nodes.get('ten_a', 'nod_1')).toMatchObject({ seq: s1, title: 'Fungi', embedded_hash: null });
  expect(await nodes.get('ten_b', 'nod_1')).toBeUndefined();
  expect((await nodes.getBySeqs('ten_a', [s3, s1, s4])).map((n) => n.id).sort()).toEqual(['nod_1', 'nod_3']);
  expect((await nodes.getByIds('ten_a', ['nod_2', 'nod_4'])).map((n) => n.seq)).toEqual([s2]);

  const page = await nodes.list('ten_a', {}, 2, 0);
  expect(page.total).toBe(3);
  expect(page.rows.map((n) => n.id)).toEqual(['nod_3', 'nod_2']); // most recently updated first
  expect((await nodes.list('ten_a', { tags: ['soil'] }, 10, 0)).rows.map((n) => n.id)).toEqual(['nod_2', 'nod_1']);
  expect((await nodes.list('ten_a', { status: 'validated' }, 10, 0)).total).toBe(1);
  expect((await nodes.list('ten_a', { updated_after: '2026-11-21T00:00:00.000Z', updated_before: '2026-11-22T00:00:00.000Z' }, 10, 0)).rows.map((n) => n.id)).toEqual(['nod_2']);
  expect([...await nodes.passing('ten_a', [s1, s2, s4], { tags: ['plants'] })]).toEqual([[s2, 'nod_2']]);

  await new ParaRepo(db).insert({ id: 'par_p', tenant_id: 'ten_a', category: 'projects', label: 'Garden', description: '', slug: 'garden', created_at: '2026-11-23T09:00:00.000Z' });
  expect(await nodes.paraItemsOf('ten_a', ['par_p', 'par_none'])).toEqual([{ id: 'par_p', status: 'active' }]);
  await nodes.setUserParaItems('ten_a', 'nod_1', ['par_p'], '2026-11-23T09:10:00.000Z');
  expect(await nodes.paraItemIds('ten_a', 'nod_1')).toEqual(['par_p']);
  // A page of rows carries each node's PARA item ids (read in the same statement).
  expect((await nodes.list('ten_a', {}, 10, 0)).rows.map((n) => [n.id, JSON.parse(n.para_ids)])).toEqual([['nod_3', []], ['nod_2', []], ['nod_1', ['par_p']]]);
  expect((await nodes.list('ten_a', { para_item_id: 'par_p' }, 10, 0)).rows.map((n) => n.id)).toEqual(['nod_1']);
  expect((await nodes.list('ten_a', { orphan: true }, 10, 0)).rows.map((n) => n.id)).toEqual(['nod_3', 'nod_2']);
  await nodes.setUserParaItems('ten_a', 'nod_1', [], '2026-11-23T09:11:00.000Z');
  expect(await nodes.paraItemIds('ten_a', 'nod_1')).toEqual([]);

  const fungi = (await nodes.get('ten_a', 'nod_1'))!;
  await nodes.update({ ...fungi, title: 'Mycorrhizal fungi', updated_at: '2026-11-23T10:00:00.000Z' }, true);
  expect(await nodes.get('ten_a', 'nod_1')).toMatchObject({ seq: s1, title: 'Mycorrhizal fungi' });
  await nodes.markEmbedded('ten_a', 'nod_1', 'hash1');
  expect((await nodes.unembedded(10)).map((n) => n.id)).toEqual(['nod_2', 'nod_3', 'nod_4']);
  await nodes.delete('ten_a', (await nodes.get('ten_a', 'nod_3'))!);
  expect(await nodes.get('ten_a', 'nod_3')).toBeUndefined();
  expect((await nodes.list('ten_a', {}, 10, 0)).total).toBe(2);
}

/** The counters the engine's triggers keep (SQLite triggers, PL/pgSQL on PostgreSQL) and the inbox's reads. */
export async function graphHealthScenario(db: Db): Promise<void> {
  await addAlpha(db);
  await addNodes(db, 'ten_a', [
    { seq: 1, id: 'nod_1', title: 'Old raw', tags: [] },
    { seq: 2, id: 'nod_2', title: 'New raw', tags: [] },
    { seq: 3, id: 'nod_3', title: 'Checked', tags: [] },
  ]);
  await raw(db).prepare("UPDATE nodes SET updated_at = '2026-01-01T00:00:00.000Z' WHERE id = 'nod_1'").run();
  await raw(db).prepare("UPDATE nodes SET status = 'validated' WHERE id = 'nod_3'").run();
  const links = new LinksRepo(db);
  await links.upsert('ten_a', 'nod_1', 'nod_2', 'related', '2026-11-23T09:00:00.000Z');
  await links.upsert('ten_a', 'nod_2', 'nod_1', 'related', '2026-11-23T09:00:00.000Z'); // a link is two rows, one per direction
  await links.upsert('ten_a', 'nod_3', 'nod_1', 'supports', '2026-11-23T09:00:00.000Z');
  await links.upsert('ten_a', 'nod_1', 'nod_3', 'supported_by', '2026-11-23T09:00:00.000Z');
  const health = new GraphHealthRepo(db);
  const june = '2026-06-01T00:00:00.000Z';
  expect(await health.withStale('ten_a', june)).toEqual({ total_nodes: 3, validated_nodes: 1, total_captures: 0, pending_captures: 0, total_links: 2, stale_nodes: 1 });
  expect(await health.withStale('ten_none', june)).toEqual({ total_nodes: 0, validated_nodes: 0, total_captures: 0, pending_captures: 0, total_links: 0, stale_nodes: 0 });
  expect(await health.staleCount('ten_a', june)).toBe(1);
  await links.delete('ten_a', 'nod_3', 'nod_1');
  await links.delete('ten_a', 'nod_1', 'nod_3');
  expect((await health.withStale('ten_a', june)).total_links).toBe(1);

  const history = new HealthHistoryRepo(db);
  const day = { total_nodes: 3, validated_nodes: 1, total_links: 1, total_captures: 0, failed_captures: 0, stale_nodes: 1, orphan_nodes: 2 };
  await history.upsert('ten_a', { day: '2026-11-22', ...day });
  await history.upsert('ten_a', { day: '2026-11-23', ...day, total_nodes: 2 });
  await history.upsert('ten_a', { day: '2026-11-23', ...day, total_nodes: 3 }); // the same day again: replaced
  expect(await history.since('ten_a', '2026-11-23')).toEqual([{ day: '2026-11-23', ...day }]);
  expect((await history.since('ten_a', '2026-11-01')).map((r) => r.day)).toEqual(['2026-11-22', '2026-11-23']);
  expect(await history.orphanCount('ten_a')).toBe(3);
  expect((await history.orphans('ten_a', 2)).map((n) => n.id)).toEqual(['nod_2', 'nod_3']); // most recently updated first
  expect(await history.staleRawCount('ten_a', '2026-06-01T00:00:00.000Z')).toBe(1);
  expect((await history.stale('ten_a', '2026-12-01T00:00:00.000Z', 10)).map((n) => n.id)).toEqual(['nod_1', 'nod_2']); // oldest first
  expect(await history.failedCaptureCount('ten_a')).toBe(0);
  expect(await history.autoFilingCount('ten_a')).toBe(0);
}

/** Deterministic pseudo-random vectors (mulberry32), so both engines get the same ones. */
export function seededVectors(seed: number, count: number, dim: number): Float32Array[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, () => Float32Array.from({ length: dim }, () => next() * 2 - 1));
}

/** Cosine distance in double precision over the float32 values: the brute force both engines must agree with. */
function cosineDistance(a: Float32Array, b: Float32Array): number {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return 1 - d / Math.sqrt(na * nb);
}

const floatsOf = (b: Buffer) => Array.from(new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4));

/**
 * The vector repository of either engine (vec0 on SQLite, node_vectors bytea on PostgreSQL):
 * the embedding space, upsert and replace, delete, get, the index loader's pages through
 * 2,500 vectors, count, the tenant's own vectors only, exact k-NN in brute-force order, and a
 * new space for another dimension.
 */
export async function vectorsScenario(db: Db, make: (db: Db) => VectorsApi): Promise<void> {
  const tenants = new TenantsRepo(db);
  await tenants.insert({ id: 'ten_a', name: 'alpha', created_at: '2026-11-23T09:00:00.000Z' });
  await tenants.insert({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T09:00:00.000Z' });
  const N = 2_500;
  const DIM = 16;
  const seqs = Array.from({ length: N }, (_, i) => i + 1);
  await db.withTx(async () => {
    await addNodes(db, 'ten_a', seqs.map((seq) => ({ seq, id: `nod_a${seq}`, title: `A ${seq}`, tags: [] })));
    await addNodes(db, 'ten_b', Array.from({ length: 20 }, (_, i) => ({ seq: N + 1 + i, id: `nod_b${i}`, title: `B ${i}`, tags: [] })));
  });

  let repo = make(db);
  expect(await repo.space()).toBeUndefined();
  expect(repo.ready).toBe(false);
  expect(await repo.matches('model-a', DIM)).toBe(false);
  expect(await repo.get('ten_a', 'nod_a1')).toBeNull();
  expect((await repo.page('ten_a', 0, 100)).vectors).toEqual([]);
  expect(await repo.knnExact('ten_a', new Float32Array(DIM), 5)).toEqual([]);
  await expect(repo.upsert('ten_a', 1, new Float32Array(DIM))).rejects.toThrow(/not initialised/);

  await db.withTx(async () => await repo.recreate('model-a', DIM, '2026-11-23T09:00:00.000Z'));
  expect(await repo.space()).toEqual({ model_id: 'model-a', dimension: DIM });
  expect([repo.ready, repo.dimension]).toEqual([true, DIM]);
  expect(await repo.matches('model-a', DIM)).toBe(true);
  expect(await repo.matches('model-b', DIM)).toBe(false);
  expect(await repo.matches('model-a', DIM * 2)).toBe(false);

  const va = seededVectors(7, N, DIM);
  const vb = seededVectors(8, 20, DIM);
  await db.withTx(async () => {
    for (const [i, seq] of seqs.entries()) await repo.upsert('ten_a', seq, va[i]);
    for (const [i, v] of vb.entries()) await repo.upsert('ten_b', N + 1 + i, v);
  });
  // Replace one, delete another.
  va[0] = seededVectors(9, 1, DIM)[0];
  await repo.upsert('ten_a', 1, va[0]);
  await repo.delete(2);
  await repo.delete(999_999); // none: nothing happens
  expect(Array.from((await repo.get('ten_a', 'nod_a1'))!)).toEqual(Array.from(va[0]));
  expect(await repo.get('ten_a', 'nod_a2')).toBeNull();
  expect(Array.from((await repo.get('ten_a', 'nod_a3'))!)).toEqual(Array.from(va[2]));
  expect(await repo.get('ten_b', 'nod_a3')).toBeNull(); // another tenant's node
  expect(Array.from((await repo.get('ten_b', 'nod_b0'))!)).toEqual(Array.from(vb[0]));

  // The loader's pages: every one of the tenant's vectors once, then the end (vec0's chunks
  // give them in storage order: a replaced vector comes last).
  const seen: Array<{ seq: number; id: string; floats: number[] }> = [];
  let after = 0;
  for (let pages = 0; ; pages++) {
    expect(pages).toBeLessThan(100);
    const { vectors, last } = await repo.page('ten_a', after, 300);
    for (const v of vectors) {
      expect(Buffer.isBuffer(v.embedding)).toBe(true);
      seen.push({ seq: v.seq, id: v.id, floats: floatsOf(v.embedding) });
    }
    if (last === null) break;
    after = last;
  }
  const live = seqs.filter((s) => s !== 2);
  expect(seen.map((v) => v.seq).sort((x, y) => x - y)).toEqual(live);
  expect(seen.every((v) => v.id === `nod_a${v.seq}`)).toBe(true);
  expect(seen.every((v) => v.floats.every((x, i) => x === va[v.seq - 1][i]))).toBe(true);
  expect((await repo.page('ten_b', 0, 1000)).vectors.map((v) => v.seq)).toEqual(vb.map((_, i) => N + 1 + i));

  expect(await repo.count('ten_a')).toBe(0); // counted from the nodes marked embedded
  await raw(db).prepare("UPDATE nodes SET embedded_hash = 'h' WHERE tenant_id = ? AND seq <> 2").run('ten_a');
  expect(await repo.count('ten_a')).toBe(N - 1);
  expect(await repo.count('ten_b')).toBe(0);

  const own = await repo.bySeqs('ten_a', [N + 1, 5, 2, 3]); // a ten_b seq, a deleted one
  expect(own.map((r) => r.seq)).toEqual([5, 3]);
  expect(floatsOf(own[0].embedding)).toEqual(Array.from(va[4]));
  const some = await repo.some('ten_a', ['nod_a4', 'nod_b1', 'nod_a2', 'nod_none']);
  expect(some.map((r) => [r.seq, r.id])).toEqual([[4, 'nod_a4']]);
  expect(floatsOf(some[0].embedding)).toEqual(Array.from(va[3]));
  expect(await repo.some('ten_b', ['nod_a4'])).toEqual([]);

  // Exact k-NN: brute force's order, the tenant's vectors only.
  const query = seededVectors(10, 1, DIM)[0];
  const brute = live.map((seq) => ({ seq, distance: cosineDistance(query, va[seq - 1]) })).sort((x, y) => x.distance - y.distance || x.seq - y.seq);
  const knn = await repo.knnExact('ten_a', query, 20);
  expect(knn.map((h) => h.seq)).toEqual(brute.slice(0, 20).map((h) => h.seq));
  knn.forEach((h, i) => {
    expect(h.id).toBe(`nod_a${h.seq}`);
    expect(h.distance).toBeCloseTo(brute[i].distance, 5);
  });
  expect((await repo.knnExact('ten_a', query, 3000)).map((h) => h.seq).sort((x, y) => x - y)).toEqual(live);
  expect((await repo.knnExact('ten_b', query, 50)).map((h) => h.seq).sort((x, y) => x - y)).toEqual(vb.map((_, i) => N + 1 + i));
  expect(await repo.knnExact('ten_a', new Float32Array(DIM + 1), 5)).toEqual([]); // another dimension
  expect(await repo.knnExact('ten_a', query, 0)).toEqual([]);

  // A new process sees the space as it was left.
  repo = make(db);
  const matchesA = await repo.matches('model-a', DIM);
  expect([repo.ready, repo.dimension, matchesA]).toEqual([true, DIM, true]);
  expect((await repo.knnExact('ten_a', query, 1))[0].seq).toBe(brute[0].seq);

  // Another model, another dimension: every vector is gone, the new dimension is written.
  await db.withTx(async () => await repo.recreate('model-b', 24, '2026-11-23T10:00:00.000Z'));
  expect(await repo.matches('model-b', 24)).toBe(true);
  expect(await repo.matches('model-a', DIM)).toBe(false);
  expect(repo.dimension).toBe(24);
  expect(await repo.get('ten_a', 'nod_a1')).toBeNull();
  expect((await repo.page('ten_a', 0, 100)).vectors).toEqual([]);
  expect(await repo.knnExact('ten_a', query, 5)).toEqual([]);
  const wide = seededVectors(11, 1, 24)[0];
  await repo.upsert('ten_a', 7, wide);
  expect(Array.from((await repo.get('ten_a', 'nod_a7'))!)).toEqual(Array.from(wide));
  expect((await repo.knnExact('ten_a', wide, 5)).map((h) => [h.seq, h.id])).toEqual([[7, 'nod_a7']]);
}
