// Shared steps for the graph tests: create nodes over the API, read links back, and check
// that every stored link has its reverse with the inverse type.
import { raw } from '../helpers/raw.js';
import { expect } from 'vitest';
import { INVERSE_LINK_TYPE, type LinkType } from '../../src/schemas/graph.js';
import type { TestApp } from '../helpers/app.js';

export async function createNode(t: TestApp, body: Record<string, unknown>, auth?: string): Promise<string> {
  const res = await t.req('POST', '/api/v1/nodes', body, auth);
  if (res.status !== 201) throw new Error(`node create failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

export async function setLinks(t: TestApp, id: string, links: Array<{ target_id: string; type: string }>, auth?: string) {
  return t.req('PATCH', `/api/v1/nodes/${id}/links`, { links }, auth);
}

export async function getLinks(t: TestApp, id: string, auth?: string): Promise<Array<{ target_id: string; type: string }>> {
  const res = await t.req('GET', `/api/v1/nodes/${id}/links`, undefined, auth);
  expect(res.status).toBe(200);
  return ((await res.json()) as { links: Array<{ target_id: string; type: string }> }).links;
}

/** Every row of the links table, as "source>target:type". */
export async function allLinkRows(t: TestApp): Promise<string[]> {
  return (await raw(t.s.db).prepare('SELECT source_id, target_id, type FROM links ORDER BY source_id, target_id').all() as Array<{ source_id: string; target_id: string; type: string }>)
    .map((r) => `${r.source_id}>${r.target_id}:${r.type}`);
}

/** Each row's reverse exists, carries the inverse type, and stays in the same tenant. */
export async function expectSymmetric(t: TestApp): Promise<void> {
  const rows = await raw(t.s.db).prepare('SELECT tenant_id, source_id, target_id, type FROM links').all() as Array<{ tenant_id: string; source_id: string; target_id: string; type: LinkType }>;
  const byKey = new Map(rows.map((r) => [`${r.source_id}>${r.target_id}`, r]));
  for (const r of rows) {
    const rev = byKey.get(`${r.target_id}>${r.source_id}`);
    expect(rev, `reverse of ${r.source_id}>${r.target_id}`).toBeDefined();
    expect(rev!.type).toBe(INVERSE_LINK_TYPE[r.type]);
    expect(rev!.tenant_id).toBe(r.tenant_id);
  }
}

export async function health(t: TestApp, auth?: string) {
  const res = await t.req('GET', '/api/v1/graph-health', undefined, auth);
  expect(res.status).toBe(200);
  return res.json();
}
