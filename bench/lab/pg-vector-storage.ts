// bytea or real[] for node vectors on PostgreSQL: size on disk, write time, and the time
// to read one tenant's vectors back into Float32Arrays (what building the in-memory index
// does at start-up). Prints one JSON line per representation.
//   nice -n 5 npx tsx bench/lab/pg-vector-storage.ts [count=10000] [dimension=512]
import { performance } from 'node:perf_hooks';
import { connectPg } from '../../src/db/pg/connect.js';

const admin = process.env.RHIZOME_TEST_DATABASE_URL;
if (!admin) throw new Error('set RHIZOME_TEST_DATABASE_URL (scripts/pg-test-cluster.sh start)');
const count = Number(process.argv[2] ?? 10_000);
const dim = Number(process.argv[3] ?? 512);

const a = await connectPg(admin);
await a.query('DROP DATABASE IF EXISTS rz_vec_lab WITH (FORCE)');
await a.query('CREATE DATABASE rz_vec_lab');
const u = new URL(admin);
u.pathname = '/rz_vec_lab';
const pg = await connectPg(u.toString());

const vectors = Array.from({ length: count }, () => Float32Array.from({ length: dim }, () => Math.random() * 2 - 1));
const asBytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

for (const kind of ['bytea', 'real[]'] as const) {
  const table = kind === 'bytea' ? 'v_bytea' : 'v_real';
  await pg.query(`CREATE TABLE ${table} (seq bigint PRIMARY KEY, tenant_id text NOT NULL, embedding ${kind} NOT NULL)`);
  if (kind === 'bytea') await pg.query(`ALTER TABLE ${table} ALTER embedding SET STORAGE EXTERNAL`);
  let t = performance.now();
  await pg.query('BEGIN');
  for (let i = 0; i < count; i += 200) {
    const rows = vectors.slice(i, i + 200);
    const values = rows.map((_, j) => `($${j * 2 + 1}, 't', $${j * 2 + 2})`).join(', ');
    const params = rows.flatMap((v, j) => [i + j, kind === 'bytea' ? asBytes(v) : Array.from(v)]);
    await pg.query(`INSERT INTO ${table} (seq, tenant_id, embedding) VALUES ${values}`, params);
  }
  await pg.query('COMMIT');
  const writeMs = performance.now() - t;
  const reads: number[] = [];
  for (let r = 0; r < 3; r++) {
    t = performance.now();
    const res = await pg.query(`SELECT seq, embedding FROM ${table} WHERE tenant_id = 't'`);
    let check = 0;
    for (const row of res.rows) {
      const v = kind === 'bytea' ? new Float32Array((row.embedding as Buffer).buffer.slice((row.embedding as Buffer).byteOffset, (row.embedding as Buffer).byteOffset + dim * 4)) : Float32Array.from(row.embedding as number[]);
      check += v[0];
    }
    if (!Number.isFinite(check)) throw new Error('bad read');
    reads.push(performance.now() - t);
  }
  const size = (await pg.query(`SELECT pg_total_relation_size('${table}') AS b`)).rows[0].b;
  console.log(JSON.stringify({ kind: 'pg_vector_storage', representation: kind, vectors: count, dimension: dim, mb_on_disk: Math.round((Number(size) / 2 ** 20) * 10) / 10, write_s: Math.round(writeMs) / 1000, load_all_ms_min: Math.round(Math.min(...reads)) }));
}
await pg.end();
await a.query('DROP DATABASE IF EXISTS rz_vec_lab WITH (FORCE)');
await a.end();
