// Top-10 keyword rankings per query, dumped as JSON lines, to diff two versions of the code:
// CISI, Debian and Python docs (each with a second tenant's notes interleaved), on SQLite
// and on PostgreSQL, through the search service as GET /nodes?mode=keyword ranks (warmed as
// the server warms). Run it on each version and compare the files:
//   eval "$(bash scripts/pg-test-cluster.sh start)"
//   npx esbuild bench/lab/keyword-rankings.ts --bundle --platform=node --format=esm --packages=external \
//     --outfile=dist/lab/keyword-rankings.mjs && node dist/lab/keyword-rankings.mjs out.jsonl
//   node dist/lab/keyword-rankings.mjs --diff before.jsonl after.jsonl
// Without RHIZOME_TEST_DATABASE_URL only SQLite runs.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildContainer } from '../../src/container.js';
import { openDatabase } from '../../src/db/open.js';
import { connectPg } from '../../src/db/pg/connect.js';
import { migratePg } from '../../src/db/pg/migrate.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { memoryLogger } from '../../src/logger.js';
import { wire } from '../../src/wiring.js';
import { loadCollection } from '../eval/collection.js';

if (process.argv[2] === '--diff') {
  const read = (f: string) => new Map(readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { key: string; top: string[] }).map((r) => [r.key, r.top.join(' ')]));
  const [a, b] = [read(process.argv[3]), read(process.argv[4])];
  const counts = new Map<string, { queries: number; differ: number }>();
  for (const [key, top] of a) {
    const group = key.split('|').slice(0, 2).join('|');
    const c = counts.get(group) ?? { queries: 0, differ: 0 };
    c.queries++;
    if (b.get(key) !== top) {
      c.differ++;
      if (c.differ <= 3) console.log(JSON.stringify({ key, before: top, after: b.get(key) ?? null }));
    }
    counts.set(group, c);
  }
  for (const [group, c] of counts) console.log(JSON.stringify({ kind: 'keyword_top10_diff', group, ...c }));
  process.exit(0);
}

const outFile = process.argv[2] ?? 'keyword-rankings.jsonl';
const dirs = [['../shared/eval/cisi', '/work/shared/eval/cisi'].find((d) => existsSync(d)), 'bench/lab/collections/debian', 'bench/lab/collections/pydoc'].filter((d): d is string => !!d);
const lines: string[] = [];

async function run(engine: 'sqlite' | 'postgres', dir: string): Promise<void> {
  const c = loadCollection(dir);
  const dataDir = mkdtempSync(join(tmpdir(), 'rhizome-lab-rankings-'));
  let drop = async () => {};
  let db: SqliteStore | PgStore;
  if (engine === 'sqlite') db = new SqliteStore(openDatabase(join(dataDir, 'rhizome.db')));
  else {
    const name = `rz_rankings_${process.pid}`;
    const admin = await connectPg(process.env.RHIZOME_TEST_DATABASE_URL!);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(process.env.RHIZOME_TEST_DATABASE_URL!);
    u.pathname = `/${name}`;
    const pg = await connectPg(u.toString());
    await migratePg(pg);
    await pg.end();
    db = new PgStore(u.toString());
    drop = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  }
  const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' }), db, embedder: new HashEmbedder(), log: memoryLogger() }));
  const { tenant_id: tenantId } = await s.tenants.create('rankings');
  const { tenant_id: other } = await s.tenants.create('other');
  const docOf = new Map<string, string>();
  // Every third document goes to the other tenant: seqs interleave, statistics stay apart.
  for (const [i, d] of c.docs.entries()) {
    const node = await s.nodes.create(i % 3 === 2 ? other : tenantId, { title: (d.title || d.text).slice(0, 500) || d.id, content: d.text });
    docOf.set(node.id, d.id);
  }
  await s.keywordWarmer?.keep(tenantId);
  for (const q of c.queries) {
    const hits = await s.search.rank(tenantId, q.text, 'keyword');
    const seqs = hits.slice(0, 10).map((h) => h.seq);
    const rows = new Map((await s.repos.nodes.getBySeqs(tenantId, seqs)).map((r) => [r.seq, r.id]));
    lines.push(JSON.stringify({ key: `${c.name}|${engine}|${q.id}`, top: seqs.map((seq) => docOf.get(rows.get(seq)!)) }));
  }
  s.keywordWarmer?.stop();
  await db.close();
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(JSON.stringify({ kind: 'keyword_rankings', collection: c.name, engine, queries: c.queries.length }));
}

for (const engine of ['sqlite', ...(process.env.RHIZOME_TEST_DATABASE_URL ? ['postgres' as const] : [])] as const) for (const dir of dirs) await run(engine, dir);
writeFileSync(outFile, `${lines.join('\n')}\n`);
