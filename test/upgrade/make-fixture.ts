// Writes test/fixtures/upgrade/rhizome-<version>.db: a database as this release leaves it,
// with a record in every table a user fills (nodes, links, tags, PARA, captures, API keys,
// sessions' keys, jobs). Run once per release, BEFORE changing the schema:
//   node scripts/make-upgrade-fixture.mjs
// upgrade.test.ts opens the committed file with the newest code and checks every row survives.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from '../../src/db/migrate.js';
import { packageVersion } from '../../src/paths.js';
import { makeTestApp } from '../helpers/app.js';

const out = process.argv[2] ?? join('test', 'fixtures', 'upgrade', `rhizome-${packageVersion()}.db`);
const dir = mkdtempSync(join(tmpdir(), 'rhizome-fixture-'));
const dbPath = join(dir, 'rhizome.db');
const t = await makeTestApp({ dbPath });

async function call(method: string, path: string, body?: unknown) {
  const res = await t.req(method, path, body);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

const area = await call('POST', '/api/v1/para', { category: 'areas', label: 'Health', description: 'sleep, food, running' });
const project = await call('POST', '/api/v1/para', { category: 'projects', label: 'Marathon 2027' });
const a = await call('POST', '/api/v1/nodes', {
  title: 'Zone 2 training', content: 'Easy runs at conversational pace build the aerobic base. See [[Long runs]].',
  summary: 'aerobic base', tags: ['running', 'training'], status: 'validated', para_item_ids: [area.id],
});
const b = await call('POST', '/api/v1/nodes', { title: 'Long runs', content: 'Once a week, 90 minutes or more; fuel every 45 minutes.', tags: ['running'], para_item_ids: [project.id] });
const c = await call('POST', '/api/v1/nodes', { title: 'Unicode — café, 日本語, emoji 🧠', content: 'Text in several scripts must come back byte for byte.\n\n- a list\n- of items' });
await call('PATCH', `/api/v1/nodes/${a.id}/links`, { links: [{ target_id: b.id, type: 'supports' }] });
await call('PATCH', `/api/v1/nodes/${c.id}/links`, { links: [{ target_id: a.id, type: 'related' }] });
await call('PATCH', `/api/v1/nodes/${b.id}`, { summary: 'weekly long run', status: 'validated' });
await call('POST', '/api/v1/captures', { title: 'A note from the CLI', content_type: 'note', source: 'cli', selected_text: 'Hydrate before the long run.', why: 'race prep', tags: ['inbox'] });
await call('POST', '/api/v1/auth/api-keys', { name: 'laptop' });
const other = await t.tenant('beta');
const res = await t.req('POST', '/api/v1/nodes', { title: 'Beta tenant note', content: 'belongs to another tenant' }, other.auth);
if (!res.ok) throw new Error(`beta node: ${res.status}`);
await t.s.queue.start();
await t.s.queue.idle(60_000);
await t.close();

const db = new Database(dbPath);
db.pragma('wal_checkpoint(TRUNCATE)');
const version = db.pragma('user_version', { simple: true });
db.close();
if (version !== SCHEMA_VERSION) throw new Error(`fixture at schema ${version}, code at ${SCHEMA_VERSION}`);
copyFileSync(dbPath, out);
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`wrote ${out} (schema version ${version})\n`);
