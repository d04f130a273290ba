// `rhizome migrate` the way a user runs it: a real database made through the API (nodes,
// links, PARA, captures with uploads, vectors, queued jobs, users and sign-in links, two
// tenants) goes SQLite → PostgreSQL → a new SQLite file, and comes back with the same rows
// in every table (same checksums), a working keyword index on both sides, and its bytes.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TableChecksum, type Value } from '../../src/transfer/checksum.js';
import { COPY_TABLES, VECTORS, columnsOf, sqliteSelect } from '../../src/transfer/tables.js';
import { queryLexemes } from '../../src/search/lexemes.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { makeTestApp } from '../helpers/app.js';
import { upload } from '../captures/helpers.js';
import { createNode, setLinks } from '../graph/helpers.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';
import { pgBm25 } from '../helpers/engine-bm25.js';

const run = promisify(execFile);
const BYTES = Buffer.from('Field notes: the old pear tree by the gate needs a whip graft.\n\u00e9t\u00e9 \u{1F350}\n', 'utf8');

/** Every copied table's row count and checksum, read straight from a SQLite file. */
function fileChecksums(path: string): Record<string, string> {
  const db = new Database(path, { readonly: true });
  sqliteVec.load(db);
  const out: Record<string, string> = {};
  for (const t of [...COPY_TABLES, VECTORS]) {
    const sum = new TableChecksum();
    for (const row of db.prepare(sqliteSelect(t.name, columnsOf(db, t.name))).raw(true).iterate() as Iterable<Value[]>) sum.add(row);
    out[t.name] = `${sum.rows}:${sum.hex}`;
  }
  db.close();
  return out;
}

async function rhizome(args: string[], dataDir: string) {
  return run(process.execPath, ['bin/rhizome.js', ...args], { env: { ...process.env, RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' } });
}

describePg('rhizome migrate round trip', () => {
  let pgdb: TestPgDatabase;
  const dir = mkdtempSync(join(tmpdir(), 'rz-migrate-'));
  const original = join(dir, 'rhizome.db');
  const back = join(dir, 'back.db');
  let captureId = '';
  let pearNode = '';

  beforeAll(async () => {
    pgdb = await createTestDatabase();
    const t = await makeTestApp({ dbPath: original });
    await t.s.queue.start();
    const project = (await (await t.req('POST', '/api/v1/para', { category: 'projects', label: 'Orchard', description: 'Fruit trees' })).json()).id as string;
    pearNode = await createNode(t, { title: 'Pear tree', content: 'The pear by the gate: graft it in spring.', tags: ['orchard', 'pears'], para_item_ids: [project] });
    const b = await createNode(t, { title: 'Whip grafting', content: 'Cut both at the same angle; bind with tape.', tags: ['grafting'] });
    await setLinks(t, pearNode, [{ target_id: b, type: 'references' }]);
    // A highlight's note is part of the node's indexed words: the rebuilt indexes must hold it.
    expect((await t.req('POST', `/api/v1/nodes/${pearNode}/highlights`, { text: 'graft it in spring', note: 'scion wood from the Conference' })).status).toBe(201);
    const res = await upload(t, BYTES, 'field-notes.txt', { why: 'for the orchard' });
    expect(res.status).toBe(201);
    captureId = (await res.json()).id;
    const beta = await t.tenant('beta');
    await createNode(t, { title: 'Beta pear notes', content: 'pear pear pear' }, beta.auth);
    await t.s.auth.addUser('ada@example.com', 'alpha');
    await t.s.auth.requestMagicLink('ada@example.com');
    await t.s.queue.idle();
    await t.s.queue.stop();
    await createNode(t, { title: 'Queued for embedding', content: 'its job is still in the queue' });
    await t.close();
  }, 120_000);
  afterAll(() => pgdb?.drop());

  it('copies every table to PostgreSQL and back into a new file with identical checksums', async () => {
    const before = fileChecksums(original);
    for (const t of ['nodes', 'links', 'para_items', 'node_para', 'captures', 'capture_files', 'capture_events', 'jobs', 'node_vectors', 'users', 'magic_links', 'api_keys', 'tenants']) {
      expect(Number(before[t].split(':')[0]), t).toBeGreaterThan(0);
    }

    const to = await rhizome(['migrate', '--to', pgdb.url, '--sqlite', original, '--json'], dir);
    const toReport = JSON.parse(to.stdout) as { tables: { table: string; rows: number; checksum: string }[] };
    expect(to.stderr).toBe(''); // no progress bar when stderr is not a terminal
    expect(Object.fromEntries(toReport.tables.map((t) => [t.table, `${t.rows}:${t.checksum}`]))).toEqual(before);

    const from = await rhizome(['migrate', '--from', pgdb.url, '--sqlite', back, '--json'], dir);
    const fromReport = JSON.parse(from.stdout) as { tables: { table: string; rows: number; checksum: string }[] };
    expect(Object.fromEntries(fromReport.tables.map((t) => [t.table, `${t.rows}:${t.checksum}`]))).toEqual(before);
    expect(fileChecksums(back)).toEqual(before);

    // PostgreSQL has its keyword index and each tenant's statistics.
    const pg = await pgdb.client();
    const alpha = (await pg.query("SELECT id FROM tenants WHERE name = 'alpha'")).rows[0].id as string;
    const sync = new PgStore(pgdb.url);
    const hits = await pgBm25(sync, alpha, queryLexemes('pear graft'), 10);
    const noteHits = await pgBm25(sync, alpha, queryLexemes('scion'), 10);
    await sync.close();
    const seqOfPear = (await pg.query('SELECT seq FROM nodes WHERE id = $1', [pearNode])).rows[0].seq;
    expect(Number(hits[0].seq)).toBe(Number(seqOfPear));
    expect(noteHits.map((h) => Number(h.seq))).toEqual([Number(seqOfPear)]);
    const stats = (await pg.query('SELECT docs FROM keyword_stats WHERE tenant_id = $1', [alpha])).rows[0];
    expect(Number(stats.docs)).toBe(Number((await pg.query('SELECT count(*) FROM nodes WHERE tenant_id = $1', [alpha])).rows[0].count));
    // Copied with the change log's trigger off (no process keeps postings of it yet), and on again after.
    expect(Number((await pg.query('SELECT count(*) FROM keyword_changes')).rows[0].count)).toBe(0);
    expect((await pg.query("SELECT tgenabled FROM pg_trigger WHERE tgname = 'node_keywords_log'")).rows[0].tgenabled).toBe('O');
    const next = await pg.query("INSERT INTO capture_events (tenant_id, capture_id, kind, at) VALUES ($1, $2, 'test', 'now') RETURNING id", [alpha, captureId]);
    expect(next.rows[0].id).toBeGreaterThan(Number(before.capture_events.split(':')[0]));
  });

  // The copy runs with the counting triggers off and the secondary indexes dropped (rebuilt
  // at the end): what it leaves must be indistinguishable from a freshly migrated schema.
  it('leaves PostgreSQL with every index and trigger of a fresh schema, and the counters counting', async () => {
    const shape = async (c: Awaited<ReturnType<TestPgDatabase['client']>>) => ({
      indexes: (await c.query('SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1')).rows,
      triggers: (await c.query('SELECT tgrelid::regclass::text AS t, tgname, tgenabled FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2')).rows,
    });
    const fresh = await createTestDatabase({ migrated: true });
    try {
      const copied = await shape(await pgdb.client());
      expect(copied.indexes.map((r) => r.indexname)).toContain('node_keywords_terms');
      expect(copied.triggers.map((r) => r.tgname)).toContain('links_stats');
      expect(copied).toEqual(await shape(await fresh.client()));
    } finally {
      await fresh.drop();
    }
    const pg = await pgdb.client();
    const alpha = (await pg.query("SELECT id FROM tenants WHERE name = 'alpha'")).rows[0].id as string;
    const stats = async () => (await pg.query('SELECT total_nodes, total_links FROM tenant_stats WHERE tenant_id = $1', [alpha])).rows[0];
    const before = await stats();
    expect(Number(before.total_nodes)).toBe(Number((await pg.query('SELECT count(*) FROM nodes WHERE tenant_id = $1', [alpha])).rows[0].count));
    expect(Number(before.total_links)).toBe(1);
    await pg.query('DELETE FROM links WHERE tenant_id = $1 AND $2 IN (source_id, target_id)', [alpha, pearNode]);
    expect(Number((await stats()).total_links)).toBe(0);
  });

  it('the new SQLite file serves: keyword search, the vectors, the uploaded bytes', async () => {
    const t = await makeTestApp({ dbPath: back });
    try {
      const found = await (await t.req('GET', '/api/v1/nodes?query=pear%20graft&mode=keyword')).json();
      expect(found.data[0].id).toBe(pearNode);
      const byNote = await (await t.req('GET', '/api/v1/nodes?query=scion&mode=keyword')).json();
      expect(byNote.data.map((n: { id: string }) => n.id)).toEqual([pearNode]);
      const content = await t.req('GET', `/api/v1/captures/${captureId}/content`);
      expect(content.status).toBe(200);
      expect(Buffer.from(await content.arrayBuffer())).toEqual(BYTES);
      expect(await t.s.repos.vectors.get(t.tenantId, pearNode)).not.toBeNull();
    } finally {
      await t.close();
    }
  });
});
