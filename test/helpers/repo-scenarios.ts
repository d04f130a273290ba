// Repository scenarios run unchanged on both backends: on SQLite by
// test/foundation/repo-scenarios.test.ts, on PostgreSQL (through PgDb) by
// test/postgres/pg-db.test.ts. Each takes the engine's connection as better-sqlite3's API.
import { expect } from 'vitest';
import type { Db } from '../../src/db/open.js';
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
function addAlpha(db: Db): void {
  new TenantsRepo(db).insert({ id: 'ten_a', name: 'alpha', created_at: '2026-11-23T09:00:00.000Z' });
}

/** What a refused statement throws on the backend under test. */
export type ErrorClass = new (...args: never[]) => Error;

export function tenantsScenario(db: Db, refused: ErrorClass): void {
  const tenants = new TenantsRepo(db);
  expect(tenants.count()).toBe(0);
  tenants.insert({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T10:00:00.000Z' });
  tenants.insert({ id: 'ten_a', name: 'alpha', created_at: '2026-11-23T09:00:00.000Z' });
  expect(tenants.count()).toBe(2);
  expect(tenants.findByName('beta')).toEqual({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T10:00:00.000Z', status: 'active', suspended_at: null });
  expect(tenants.findById('ten_zzz')).toBeUndefined();
  expect(tenants.list().map((t) => t.name)).toEqual(['alpha', 'beta']);
  tenants.setMetaOnce('secret', 'first');
  tenants.setMetaOnce('secret', 'second');
  expect(tenants.getMeta('secret')).toBe('first');
  expect(() => tenants.insert({ id: 'ten_c', name: 'beta', created_at: '2026-11-23T11:00:00.000Z' })).toThrow(refused);
}

export function apiKeysScenario(db: Db): void {
  addAlpha(db);
  const keys = new ApiKeysRepo(db);
  const hmac = Buffer.from('00ff10ab'.repeat(8), 'hex');
  keys.insert({ id: 'key_1', tenant_id: 'ten_a', name: 'laptop', secret_hmac: hmac, created_at: '2026-11-23T09:00:01.000Z' });
  const found = keys.findActive('key_1')!;
  expect(Buffer.isBuffer(found.secret_hmac)).toBe(true);
  expect(found.secret_hmac.equals(hmac)).toBe(true);
  keys.touch('ten_a', 'key_1', '2026-11-23T09:05:00.000Z');
  expect(keys.list('ten_a')).toEqual([{ id: 'key_1', name: 'laptop', created_at: '2026-11-23T09:00:01.000Z', last_used_at: '2026-11-23T09:05:00.000Z' }]);
  expect(keys.revoke('ten_other', 'key_1', '2026-11-23T10:00:00.000Z')).toBe(false); // another tenant's key
  expect(keys.revoke('ten_a', 'key_1', '2026-11-23T10:00:00.000Z')).toBe(true);
  expect(keys.revoke('ten_a', 'key_1', '2026-11-23T10:00:00.000Z')).toBe(false);
  expect(keys.findActive('key_1')).toBeUndefined();
}

export function transactionScenario(db: Db, refused: ErrorClass): void {
  const tenants = new TenantsRepo(db);
  const both = db.transaction((a: string, b: string) => {
    tenants.insert({ id: `ten_${a}`, name: a, created_at: '2026-11-23T09:00:00.000Z' });
    tenants.insert({ id: `ten_${b}`, name: b, created_at: '2026-11-23T09:00:00.000Z' });
  });
  both('one', 'two');
  expect(() => both('three', 'one')).toThrow(refused); // 'one' exists: 'three' is undone too
  expect(tenants.list().map((t) => t.name).sort()).toEqual(['one', 'two']);
}

/** `make`: the engine's jobs repository (PostgreSQL's claims with SKIP LOCKED: PgJobsRepo). */
export function jobsScenario(db: Db, make: (db: Db) => JobsRepo = (d) => new JobsRepo(d)): void {
  addAlpha(db);
  const jobs = make(db);
  const now = 1_763_888_400_000;
  expect(jobs.insert('ten_a', 'embed', { node: 1 }, 'embed:1', now, now)).toBe(true);
  expect(jobs.insert('ten_a', 'embed', { node: 1 }, 'embed:1', now, now)).toBe(false); // already queued
  expect(jobs.insert('ten_a', 'embed', { node: 2 }, 'embed:2', now, now)).toBe(true);
  expect(jobs.insert('ten_a', 'capture', { id: 'c' }, null, now + 60_000, now)).toBe(true); // not yet due
  expect(jobs.depth()).toBe(3);
  expect(jobs.nextRunAt()).toBe(now);
  expect(jobs.claim(['capture'], now, () => 8)).toEqual([]);
  const claimed = jobs.claim(['embed', 'capture'], now, () => 8);
  expect(claimed.map((j) => [j.kind, JSON.parse(j.payload).node, j.status, j.attempts])).toEqual([
    ['embed', 1, 'running', 1],
    ['embed', 2, 'running', 1],
  ]);
  expect(jobs.pendingOfKind('ten_a', 'embed')).toBe(2);
  // While embed:1 runs, an identical job may be queued; its retry then gives way to it.
  expect(jobs.insert('ten_a', 'embed', { node: 1 }, 'embed:1', now, now)).toBe(true);
  jobs.retry(claimed[0].id, now + 1000, 'model busy', now);
  jobs.retryTransient(claimed[1].id, now + 1000, 'disk full', now);
  expect(jobs.depthOf('ten_a')).toBe(3);
  const again = jobs.claim(['embed'], now + 1000, () => 8);
  expect(again.map((j) => [JSON.parse(j.payload).node, j.attempts])).toEqual([[2, 1], [1, 1]]);
  jobs.complete(again[0].id);
  expect(jobs.requeueRunning(now + 2000)).toBe(1); // the process died with embed:1 running
  expect(jobs.depth()).toBe(2);
}

export function tokensScenario(db: Db): void {
  addAlpha(db);
  new UsersRepo(db).insert({ id: 'usr_1', tenant_id: 'ten_a', email: 'ada@example.org', created_at: '2026-11-23T09:00:00.000Z' });
  const tokens = new TokensRepo(db);
  const link = Buffer.alloc(32, 7);
  tokens.addMagicLink({ token_hmac: link, tenant_id: 'ten_a', user_id: 'usr_1', expires_at: 2_000 });
  expect(tokens.findMagicLink(link)).toMatchObject({ tenant_id: 'ten_a', user_id: 'usr_1', expires_at: 2_000, used_at: null });
  expect(tokens.findMagicLink(Buffer.alloc(32, 8))).toBeUndefined();
  expect(tokens.consumeMagicLink('ten_a', link, 1_000)).toBe(true);
  expect(tokens.consumeMagicLink('ten_a', link, 1_001)).toBe(false); // once only
  const refresh = { id: 'rt_1', tenant_id: 'ten_a', user_id: 'usr_1', family_id: 'fam_1', token_hmac: Buffer.alloc(32, 9), created_at: 1_000, expires_at: 9_000, client_id: null };
  tokens.addRefresh(refresh);
  expect(tokens.findRefreshByHmac(refresh.token_hmac)?.token_hmac.equals(refresh.token_hmac)).toBe(true);
  expect(tokens.markRefreshUsed('ten_a', 'rt_1', 1_500)).toBe(true);
  expect(tokens.markRefreshUsed('ten_a', 'rt_1', 1_600)).toBe(false);
  expect(tokens.familyRevoked('ten_a', 'fam_1')).toBe(false);
  tokens.revokeFamily('ten_a', 'fam_1', 1_700);
  expect(tokens.familyRevoked('ten_a', 'fam_1')).toBe(true);
  expect(tokens.familyRevoked('ten_other', 'fam_1')).toBe(false);
}

/** Nodes written straight into the table (no keyword index: these scenarios do not search). */
function addNodes(db: Db, tenantId: string, nodes: Array<{ seq: number; id: string; title: string; tags: string[] }>): void {
  const ins = db.prepare(
    `INSERT INTO nodes (seq, id, tenant_id, title, summary, body_markdown, tags, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, '', '', ?, 'raw', '2026-11-23T09:00:00.000Z', '2026-11-23T09:00:00.000Z')`,
  );
  for (const n of nodes) ins.run(n.seq, n.id, tenantId, n.title, JSON.stringify(n.tags));
}

export function linksAndTagsScenario(db: Db): void {
  const tenants = new TenantsRepo(db);
  tenants.insert({ id: 'ten_a', name: 'alpha', created_at: '2026-11-23T09:00:00.000Z' });
  tenants.insert({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T09:00:00.000Z' });
  addNodes(db, 'ten_a', [
    { seq: 1, id: 'nod_fungi', title: 'Fungi', tags: ['soil', 'biology'] },
    { seq: 2, id: 'nod_roots', title: 'Roots', tags: ['soil'] },
    { seq: 3, id: 'nod_carbon', title: 'Carbon', tags: ['climate', 'soil'] },
  ]);
  addNodes(db, 'ten_b', [{ seq: 4, id: 'nod_other', title: 'Elsewhere', tags: ['soil'] }]);
  const links = new LinksRepo(db);
  expect(links.nodeExists('ten_a', 'nod_fungi')).toBe(true);
  expect(links.nodeExists('ten_b', 'nod_fungi')).toBe(false);
  expect([...links.existingIds('ten_a', ['nod_roots', 'nod_other', 'nod_none'])]).toEqual(['nod_roots']);
  links.upsert('ten_a', 'nod_fungi', 'nod_roots', 'related', '2026-11-23T10:00:00.000Z');
  links.upsert('ten_a', 'nod_fungi', 'nod_carbon', 'supports', '2026-11-23T10:00:00.000Z');
  links.upsert('ten_a', 'nod_fungi', 'nod_roots', 'part_of', '2026-11-23T11:00:00.000Z'); // retyped
  links.upsert('ten_b', 'nod_fungi', 'nod_roots', 'contradicts', '2026-11-23T12:00:00.000Z'); // another tenant: no effect
  expect(links.outgoing('ten_a', 'nod_fungi')).toEqual([
    { target_id: 'nod_carbon', type: 'supports' },
    { target_id: 'nod_roots', type: 'part_of' },
  ]);
  expect(links.related('ten_a', 'nod_fungi', 1)).toEqual([{ id: 'nod_roots', title: 'Roots', summary: '', relationship_type: 'part_of' }]);
  expect(links.edgesFrom('ten_a', ['nod_fungi', 'nod_roots'], 10).map((e) => `${e.source_id}>${e.target_id}`)).toEqual(['nod_fungi>nod_carbon', 'nod_fungi>nod_roots']);
  links.delete('ten_a', 'nod_fungi', 'nod_roots');
  expect(links.outgoing('ten_a', 'nod_fungi').map((l) => l.target_id)).toEqual(['nod_carbon']);

  const tags = new TagsRepo(db);
  expect(tags.counts('ten_a')).toEqual([
    { name: 'soil', count: 3 },
    { name: 'biology', count: 1 },
    { name: 'climate', count: 1 },
  ]);
  expect(tags.nodesWith('ten_a', 'soil').map((n) => n.id)).toEqual(['nod_fungi', 'nod_roots', 'nod_carbon']);
  expect(tags.nodesWith('ten_a', 'nothing')).toEqual([]);
}

export function paraScenario(db: Db): void {
  addAlpha(db);
  addNodes(db, 'ten_a', [
    { seq: 1, id: 'nod_1', title: 'One', tags: [] },
    { seq: 2, id: 'nod_2', title: 'Two', tags: [] },
    { seq: 3, id: 'nod_3', title: 'Three', tags: [] },
  ]);
  const para = new ParaRepo(db);
  const at = '2026-11-23T09:00:00.000Z';
  para.insert({ id: 'par_r', tenant_id: 'ten_a', category: 'resources', label: 'recipes', description: '', slug: 'recipes', created_at: at });
  para.insert({ id: 'par_b', tenant_id: 'ten_a', category: 'projects', label: 'beta launch', description: '', slug: 'beta-launch', created_at: at });
  para.insert({ id: 'par_a', tenant_id: 'ten_a', category: 'projects', label: 'Alpha', description: 'first', slug: 'alpha', created_at: at });
  para.insert({ id: 'par_a2', tenant_id: 'ten_a', category: 'areas', label: 'Alpha care', description: '', slug: 'alpha-2', created_at: at });
  // Projects, then areas, then resources; by label whatever its case.
  expect(para.list('ten_a', {}).map((i) => i.id)).toEqual(['par_a', 'par_b', 'par_a2', 'par_r']);
  expect(para.list('ten_a', { category: 'projects' }).map((i) => i.id)).toEqual(['par_a', 'par_b']);
  expect(para.get('ten_a', 'par_a')).toMatchObject({ label: 'Alpha', description: 'first', status: 'active', slug: 'alpha' });
  expect(para.slugsLike('ten_a', 'alpha', null).sort()).toEqual(['alpha', 'alpha-2']);
  expect(para.slugsLike('ten_a', 'alpha', 'par_a')).toEqual(['alpha-2']);
  para.update('ten_a', { ...para.get('ten_a', 'par_r')!, status: 'archived', updated_at: '2026-11-23T10:00:00.000Z' });
  expect(para.list('ten_a', { status: 'archived' }).map((i) => i.id)).toEqual(['par_r']);
  expect(para.activeItems('ten_a').map((i) => i.id)).toEqual(['par_a', 'par_a2', 'par_b']);
  expect(para.hasActiveItems('ten_a')).toBe(true);

  expect(para.orphanIds('ten_a')).toEqual(['nod_1', 'nod_2', 'nod_3']);
  const auto = { nodeId: 'nod_1', itemId: 'par_a', score: 0.61, method: 'centroid', model: 'use-lite' };
  expect(para.insertAuto('ten_a', auto, at)).toBe(true);
  expect(para.insertAuto('ten_a', { ...auto, score: 0.9 }, at)).toBe(false); // filed already
  db.prepare(`INSERT INTO node_para (tenant_id, node_id, para_item_id, source, created_at) VALUES (?, ?, ?, 'user', ?)`).run('ten_a', 'nod_2', 'par_a', '2026-11-23T09:30:00.000Z');
  expect(para.isOrphan('ten_a', 'nod_1')).toBe(false);
  expect(para.orphanIds('ten_a')).toEqual(['nod_3']);
  expect(para.userNodeIds('ten_a', 'par_a', 10)).toEqual(['nod_2']); // the automatic filing is not a sample
  expect(para.nodeCounts('ten_a')).toEqual(new Map([['par_a', 2]]));
  expect(para.hideAssociations('ten_a', 'par_a')).toBe(2);
  expect(para.orphanIds('ten_a')).toEqual(['nod_1', 'nod_2', 'nod_3']);
  expect(para.restoreAssociations('ten_a', 'par_a')).toBe(2);
  expect(para.rateLimitLastAt('ten_a', 'rescan')).toBeNull();
  para.setRateLimit('ten_a', 'rescan', 1_000);
  para.setRateLimit('ten_a', 'rescan', 2_000);
  expect(para.rateLimitLastAt('ten_a', 'rescan')).toBe(2_000);
}

export function importsAndCalibrationsScenario(db: Db): void {
  addAlpha(db);
  addNodes(db, 'ten_a', [
    { seq: 1, id: 'nod_1', title: 'One', tags: [] },
    { seq: 2, id: 'nod_2', title: 'Two', tags: [] },
  ]);
  const imports = new ImportsRepo(db);
  imports.insert({ id: 'imp_1', tenant_id: 'ten_a', kind: 'markdown', status: 'running', total: 2, created_at: '2026-11-23T09:00:00.000Z' });
  imports.upsertKey('ten_a', 'vault:notes/one.md', 'nod_1', 'h1', '2026-11-23T09:00:01.000Z');
  imports.upsertKey('ten_a', 'vault:notes/copy.md', 'nod_2', 'h1', '2026-11-23T09:00:02.000Z');
  imports.upsertKey('ten_a', 'vault:notes/one.md', 'nod_1', 'h2', '2026-11-23T09:00:03.000Z'); // the file changed
  expect(imports.key('ten_a', 'vault:notes/one.md')).toEqual({ node_id: 'nod_1', content_hash: 'h2' });
  expect(imports.key('ten_b', 'vault:notes/one.md')).toBeUndefined();
  expect(imports.byHash('ten_a', 'h1')).toEqual([{ node_id: 'nod_2', content_hash: 'h1', key: 'vault:notes/copy.md' }]);
  imports.progress('ten_a', 'imp_1', '{"created":1}', '[]');
  expect(imports.get('ten_a', 'imp_1')).toMatchObject({ status: 'running', total: 2, counts: '{"created":1}', finished_at: null });
  imports.insert({ id: 'imp_2', tenant_id: 'ten_a', kind: 'bookmarks', status: 'running', total: 0, created_at: '2026-11-23T09:01:00.000Z' });
  imports.finish('ten_a', 'imp_2', 'completed', '{}', '[]', null, '2026-11-23T09:02:00.000Z');
  expect(imports.interruptAll('2026-11-23T10:00:00.000Z')).toBe(1); // imp_1 was still running
  expect(imports.get('ten_a', 'imp_1')).toMatchObject({ status: 'interrupted', finished_at: '2026-11-23T10:00:00.000Z' });
  expect(imports.get('ten_a', 'imp_2')).toMatchObject({ status: 'completed' });

  const cals = new CalibrationsRepo(db);
  const scale = { floor: 0.3, ceiling: 0.8 } as never;
  expect(cals.get('use-lite', 'set1')).toBeNull();
  cals.put({ model_id: 'use-lite', query: scale, note: scale, set_hash: 'set1' }, '2026-11-23T09:00:00.000Z');
  expect(cals.get('use-lite', 'set1')).toEqual({ model_id: 'use-lite', query: scale, note: scale, set_hash: 'set1' });
  cals.put({ model_id: 'use-lite', query: scale, note: scale, set_hash: 'set2' }, '2026-11-23T10:00:00.000Z');
  expect(cals.get('use-lite', 'set1')).toBeNull(); // a new calibration set replaced it
  expect(cals.get('use-lite', 'set2')?.set_hash).toBe('set2');
}

/** `keywords`: the engine's keyword index (undefined: NodesRepo's own, SQLite's FTS5). */
export function nodesScenario(db: Db, keywords?: NodeKeywordIndex): void {
  addAlpha(db);
  new TenantsRepo(db).insert({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T09:00:00.000Z' });
  const nodes = new NodesRepo(db, keywords);
  const row = (id: string, tenant: string, title: string, tags: string[], status: 'raw' | 'validated', at: string) => ({
    id, tenant_id: tenant, title, summary: '', body_markdown: `About ${title.toLowerCase()}.`, tags: JSON.stringify(tags), status, created_at: at, updated_at: at,
  });
  const s1 = nodes.insert(row('nod_1', 'ten_a', 'Fungi', ['soil'], 'raw', '2026-11-20T09:00:00.000Z'));
  const s2 = nodes.insert(row('nod_2', 'ten_a', 'Roots', ['soil', 'plants'], 'validated', '2026-11-21T09:00:00.000Z'));
  const s3 = nodes.insert(row('nod_3', 'ten_a', 'Rivers', [], 'raw', '2026-11-22T09:00:00.000Z'));
  const s4 = nodes.insert(row('nod_4', 'ten_b', 'Elsewhere', ['soil'], 'raw', '2026-11-22T09:00:00.000Z'));
  expect([s2 - s1, s3 - s2, s4 - s3]).toEqual([1, 1, 1]);
  expect(nodes.get('ten_a', 'nod_1')).toMatchObject({ seq: s1, title: 'Fungi', embedded_hash: null });
  expect(nodes.get('ten_b', 'nod_1')).toBeUndefined();
  expect(nodes.getBySeqs('ten_a', [s3, s1, s4]).map((n) => n.id).sort()).toEqual(['nod_1', 'nod_3']);
  expect(nodes.getByIds('ten_a', ['nod_2', 'nod_4']).map((n) => n.seq)).toEqual([s2]);

  const page = nodes.list('ten_a', {}, 2, 0);
  expect(page.total).toBe(3);
  expect(page.rows.map((n) => n.id)).toEqual(['nod_3', 'nod_2']); // most recently updated first
  expect(nodes.list('ten_a', { tags: ['soil'] }, 10, 0).rows.map((n) => n.id)).toEqual(['nod_2', 'nod_1']);
  expect(nodes.list('ten_a', { status: 'validated' }, 10, 0).total).toBe(1);
  expect(nodes.list('ten_a', { updated_after: '2026-11-21T00:00:00.000Z', updated_before: '2026-11-22T00:00:00.000Z' }, 10, 0).rows.map((n) => n.id)).toEqual(['nod_2']);
  expect([...nodes.passing('ten_a', [s1, s2, s4], { tags: ['plants'] })]).toEqual([[s2, 'nod_2']]);

  new ParaRepo(db).insert({ id: 'par_p', tenant_id: 'ten_a', category: 'projects', label: 'Garden', description: '', slug: 'garden', created_at: '2026-11-23T09:00:00.000Z' });
  expect(nodes.paraItemsOf('ten_a', ['par_p', 'par_none'])).toEqual([{ id: 'par_p', status: 'active' }]);
  nodes.setUserParaItems('ten_a', 'nod_1', ['par_p'], '2026-11-23T09:10:00.000Z');
  expect(nodes.paraItemIds('ten_a', 'nod_1')).toEqual(['par_p']);
  expect(nodes.paraItemIdsMany('ten_a', ['nod_1', 'nod_2'])).toEqual(new Map([['nod_1', ['par_p']]]));
  expect(nodes.list('ten_a', { para_item_id: 'par_p' }, 10, 0).rows.map((n) => n.id)).toEqual(['nod_1']);
  expect(nodes.list('ten_a', { orphan: true }, 10, 0).rows.map((n) => n.id)).toEqual(['nod_3', 'nod_2']);
  nodes.setUserParaItems('ten_a', 'nod_1', [], '2026-11-23T09:11:00.000Z');
  expect(nodes.paraItemIds('ten_a', 'nod_1')).toEqual([]);

  const fungi = nodes.get('ten_a', 'nod_1')!;
  nodes.update({ ...fungi, title: 'Mycorrhizal fungi', updated_at: '2026-11-23T10:00:00.000Z' }, true);
  expect(nodes.get('ten_a', 'nod_1')).toMatchObject({ seq: s1, title: 'Mycorrhizal fungi' });
  nodes.markEmbedded('ten_a', 'nod_1', 'hash1');
  expect(nodes.unembedded(10).map((n) => n.id)).toEqual(['nod_2', 'nod_3', 'nod_4']);
  nodes.delete('ten_a', nodes.get('ten_a', 'nod_3')!);
  expect(nodes.get('ten_a', 'nod_3')).toBeUndefined();
  expect(nodes.list('ten_a', {}, 10, 0).total).toBe(2);
}

/** The counters the engine's triggers keep (SQLite triggers, PL/pgSQL on PostgreSQL) and the inbox's reads. */
export function graphHealthScenario(db: Db): void {
  addAlpha(db);
  addNodes(db, 'ten_a', [
    { seq: 1, id: 'nod_1', title: 'Old raw', tags: [] },
    { seq: 2, id: 'nod_2', title: 'New raw', tags: [] },
    { seq: 3, id: 'nod_3', title: 'Checked', tags: [] },
  ]);
  db.prepare("UPDATE nodes SET updated_at = '2026-01-01T00:00:00.000Z' WHERE id = 'nod_1'").run();
  db.prepare("UPDATE nodes SET status = 'validated' WHERE id = 'nod_3'").run();
  const links = new LinksRepo(db);
  links.upsert('ten_a', 'nod_1', 'nod_2', 'related', '2026-11-23T09:00:00.000Z');
  links.upsert('ten_a', 'nod_2', 'nod_1', 'related', '2026-11-23T09:00:00.000Z'); // a link is two rows, one per direction
  links.upsert('ten_a', 'nod_3', 'nod_1', 'supports', '2026-11-23T09:00:00.000Z');
  links.upsert('ten_a', 'nod_1', 'nod_3', 'supported_by', '2026-11-23T09:00:00.000Z');
  const health = new GraphHealthRepo(db);
  const june = '2026-06-01T00:00:00.000Z';
  expect(health.withStale('ten_a', june)).toEqual({ total_nodes: 3, validated_nodes: 1, total_captures: 0, pending_captures: 0, total_links: 2, stale_nodes: 1 });
  expect(health.withStale('ten_none', june)).toEqual({ total_nodes: 0, validated_nodes: 0, total_captures: 0, pending_captures: 0, total_links: 0, stale_nodes: 0 });
  expect(health.staleCount('ten_a', june)).toBe(1);
  links.delete('ten_a', 'nod_3', 'nod_1');
  links.delete('ten_a', 'nod_1', 'nod_3');
  expect(health.withStale('ten_a', june).total_links).toBe(1);

  const history = new HealthHistoryRepo(db);
  const day = { total_nodes: 3, validated_nodes: 1, total_links: 1, total_captures: 0, failed_captures: 0, stale_nodes: 1, orphan_nodes: 2 };
  history.upsert('ten_a', { day: '2026-11-22', ...day });
  history.upsert('ten_a', { day: '2026-11-23', ...day, total_nodes: 2 });
  history.upsert('ten_a', { day: '2026-11-23', ...day, total_nodes: 3 }); // the same day again: replaced
  expect(history.since('ten_a', '2026-11-23')).toEqual([{ day: '2026-11-23', ...day }]);
  expect(history.since('ten_a', '2026-11-01').map((r) => r.day)).toEqual(['2026-11-22', '2026-11-23']);
  expect(history.orphanCount('ten_a')).toBe(3);
  expect(history.orphans('ten_a', 2).map((n) => n.id)).toEqual(['nod_2', 'nod_3']); // most recently updated first
  expect(history.staleRawCount('ten_a', '2026-06-01T00:00:00.000Z')).toBe(1);
  expect(history.stale('ten_a', '2026-12-01T00:00:00.000Z', 10).map((n) => n.id)).toEqual(['nod_1', 'nod_2']); // oldest first
  expect(history.failedCaptureCount('ten_a')).toBe(0);
  expect(history.autoFilingCount('ten_a')).toBe(0);
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
export function vectorsScenario(db: Db, make: (db: Db) => VectorsApi): void {
  const tenants = new TenantsRepo(db);
  tenants.insert({ id: 'ten_a', name: 'alpha', created_at: '2026-11-23T09:00:00.000Z' });
  tenants.insert({ id: 'ten_b', name: 'beta', created_at: '2026-11-23T09:00:00.000Z' });
  const N = 2_500;
  const DIM = 16;
  const seqs = Array.from({ length: N }, (_, i) => i + 1);
  db.transaction(() => {
    addNodes(db, 'ten_a', seqs.map((seq) => ({ seq, id: `nod_a${seq}`, title: `A ${seq}`, tags: [] })));
    addNodes(db, 'ten_b', Array.from({ length: 20 }, (_, i) => ({ seq: N + 1 + i, id: `nod_b${i}`, title: `B ${i}`, tags: [] })));
  })();

  let repo = make(db);
  expect(repo.space()).toBeUndefined();
  expect(repo.ready).toBe(false);
  expect(repo.matches('model-a', DIM)).toBe(false);
  expect(repo.get('ten_a', 'nod_a1')).toBeNull();
  expect(repo.page('ten_a', 0, 100).vectors).toEqual([]);
  expect(repo.knnExact('ten_a', new Float32Array(DIM), 5)).toEqual([]);
  expect(() => repo.upsert('ten_a', 1, new Float32Array(DIM))).toThrow(/not initialised/);

  db.transaction(() => repo.recreate('model-a', DIM, '2026-11-23T09:00:00.000Z'))();
  expect(repo.space()).toEqual({ model_id: 'model-a', dimension: DIM });
  expect([repo.ready, repo.dimension]).toEqual([true, DIM]);
  expect(repo.matches('model-a', DIM)).toBe(true);
  expect(repo.matches('model-b', DIM)).toBe(false);
  expect(repo.matches('model-a', DIM * 2)).toBe(false);

  const va = seededVectors(7, N, DIM);
  const vb = seededVectors(8, 20, DIM);
  db.transaction(() => {
    seqs.forEach((seq, i) => repo.upsert('ten_a', seq, va[i]));
    vb.forEach((v, i) => repo.upsert('ten_b', N + 1 + i, v));
  })();
  // Replace one, delete another.
  va[0] = seededVectors(9, 1, DIM)[0];
  repo.upsert('ten_a', 1, va[0]);
  repo.delete(2);
  repo.delete(999_999); // none: nothing happens
  expect(Array.from(repo.get('ten_a', 'nod_a1')!)).toEqual(Array.from(va[0]));
  expect(repo.get('ten_a', 'nod_a2')).toBeNull();
  expect(Array.from(repo.get('ten_a', 'nod_a3')!)).toEqual(Array.from(va[2]));
  expect(repo.get('ten_b', 'nod_a3')).toBeNull(); // another tenant's node
  expect(Array.from(repo.get('ten_b', 'nod_b0')!)).toEqual(Array.from(vb[0]));

  // The loader's pages: every one of the tenant's vectors once, then the end (vec0's chunks
  // give them in storage order: a replaced vector comes last).
  const seen: Array<{ seq: number; id: string; floats: number[] }> = [];
  let after = 0;
  for (let pages = 0; ; pages++) {
    expect(pages).toBeLessThan(100);
    const { vectors, last } = repo.page('ten_a', after, 300);
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
  expect(repo.page('ten_b', 0, 1000).vectors.map((v) => v.seq)).toEqual(vb.map((_, i) => N + 1 + i));

  expect(repo.count('ten_a')).toBe(0); // counted from the nodes marked embedded
  db.prepare("UPDATE nodes SET embedded_hash = 'h' WHERE tenant_id = ? AND seq <> 2").run('ten_a');
  expect(repo.count('ten_a')).toBe(N - 1);
  expect(repo.count('ten_b')).toBe(0);

  const own = repo.bySeqs('ten_a', [N + 1, 5, 2, 3]); // a ten_b seq, a deleted one
  expect(own.map((r) => r.seq)).toEqual([5, 3]);
  expect(floatsOf(own[0].embedding)).toEqual(Array.from(va[4]));
  const some = repo.some('ten_a', ['nod_a4', 'nod_b1', 'nod_a2', 'nod_none']);
  expect(some.map((r) => [r.seq, r.id])).toEqual([[4, 'nod_a4']]);
  expect(floatsOf(some[0].embedding)).toEqual(Array.from(va[3]));
  expect(repo.some('ten_b', ['nod_a4'])).toEqual([]);

  // Exact k-NN: brute force's order, the tenant's vectors only.
  const query = seededVectors(10, 1, DIM)[0];
  const brute = live.map((seq) => ({ seq, distance: cosineDistance(query, va[seq - 1]) })).sort((x, y) => x.distance - y.distance || x.seq - y.seq);
  const knn = repo.knnExact('ten_a', query, 20);
  expect(knn.map((h) => h.seq)).toEqual(brute.slice(0, 20).map((h) => h.seq));
  knn.forEach((h, i) => {
    expect(h.id).toBe(`nod_a${h.seq}`);
    expect(h.distance).toBeCloseTo(brute[i].distance, 5);
  });
  expect(repo.knnExact('ten_a', query, 3000).map((h) => h.seq).sort((x, y) => x - y)).toEqual(live);
  expect(repo.knnExact('ten_b', query, 50).map((h) => h.seq).sort((x, y) => x - y)).toEqual(vb.map((_, i) => N + 1 + i));
  expect(repo.knnExact('ten_a', new Float32Array(DIM + 1), 5)).toEqual([]); // another dimension
  expect(repo.knnExact('ten_a', query, 0)).toEqual([]);

  // A new process sees the space as it was left.
  repo = make(db);
  expect([repo.ready, repo.dimension, repo.matches('model-a', DIM)]).toEqual([true, DIM, true]);
  expect(repo.knnExact('ten_a', query, 1)[0].seq).toBe(brute[0].seq);

  // Another model, another dimension: every vector is gone, the new dimension is written.
  db.transaction(() => repo.recreate('model-b', 24, '2026-11-23T10:00:00.000Z'))();
  expect(repo.matches('model-b', 24)).toBe(true);
  expect(repo.matches('model-a', DIM)).toBe(false);
  expect(repo.dimension).toBe(24);
  expect(repo.get('ten_a', 'nod_a1')).toBeNull();
  expect(repo.page('ten_a', 0, 100).vectors).toEqual([]);
  expect(repo.knnExact('ten_a', query, 5)).toEqual([]);
  const wide = seededVectors(11, 1, 24)[0];
  repo.upsert('ten_a', 7, wide);
  expect(Array.from(repo.get('ten_a', 'nod_a7')!)).toEqual(Array.from(wide));
  expect(repo.knnExact('ten_a', wide, 5).map((h) => [h.seq, h.id])).toEqual([[7, 'nod_a7']]);
}
