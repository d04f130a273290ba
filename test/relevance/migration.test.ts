// Migration 2 moves an existing database's shared keyword index into one FTS5 table per
// tenant: the nodes stay findable, each tenant's BM25 sees only its own nodes.
import { raw } from '../helpers/raw.js';
import type { SqliteStore } from '../../src/db/store/sqlite-store.js';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaPath } from '../../src/paths.js';
import { ftsTable } from '../../src/repos/keyword-index.repo.js';
import { makeTestApp } from '../helpers/app.js';

describe('migration to per-tenant keyword tables', () => {
  it('moves every node of a version-1 database into its tenant’s table and drops the shared one', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rz-mig-')), 'rhizome.db');
    const v1 = new Database(file);
    v1.exec(readFileSync(schemaPath(), 'utf8'));
    v1.pragma('user_version = 1');
    const now = new Date().toISOString();
    v1.prepare('INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)').run('ten_a', 'alpha', now);
    v1.prepare('INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)').run('ten_b', 'beta', now);
    const add = (seq: number, id: string, tenant: string, title: string, body: string, tags: string[]) => {
      v1.prepare('INSERT INTO nodes (seq, id, tenant_id, title, body_markdown, tags, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(seq, id, tenant, title, body, JSON.stringify(tags), now, now);
      v1.prepare('INSERT INTO nodes_fts (rowid, title, summary, body, tags) VALUES (?, ?, ?, ?, ?)').run(seq, title, '', body, tags.join(' '));
    };
    add(1, 'nod_1', 'ten_a', 'Sourdough starter', 'feed it flour and water', ['bread']);
    add(2, 'nod_2', 'ten_b', 'Sourdough for beta', 'beta bakes too', []);
    add(3, 'nod_3', 'ten_a', 'Compost', 'turn the heap', ['garden']);
    v1.close();

    const t = await makeTestApp({ dbPath: file }); // opens and migrates
    try {
      expect((t.s.db as SqliteStore).handle.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(2);
      expect(await raw(t.s.db).prepare("SELECT count(*) FROM sqlite_master WHERE name = 'nodes_fts'").pluck().get()).toBe(0);
      expect(await raw(t.s.db).prepare(`SELECT count(*) FROM ${ftsTable('ten_a')}`).pluck().get()).toBe(2);
      expect(await raw(t.s.db).prepare(`SELECT count(*) FROM ${ftsTable('ten_b')}`).pluck().get()).toBe(1);
      const r = await (await t.req('GET', '/api/v1/nodes?mode=keyword&query=garden')).json();
      expect(r.data.map((n: { id: string }) => n.id)).toEqual(['nod_3']); // tags moved too
      const s = await (await t.req('GET', '/api/v1/nodes?mode=keyword&query=sourdough')).json();
      expect(s.data.map((n: { id: string }) => n.id)).toEqual(['nod_1']);
    } finally {
      await t.close();
    }
  });
});
