// vec0 k-NN speed at 100k x 512: float brute force vs bit[] coarse + float rerank.
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
const N = Number(process.argv[2] ?? 100000), D = 512;
const db = new Database(':memory:');
sqliteVec.load(db);
db.exec(`CREATE VIRTUAL TABLE v USING vec0(tenant_id text partition key, embedding float[${D}] distance_metric=cosine, bin bit[${D}])`);
db.exec(`CREATE VIRTUAL TABLE vb USING vec0(tenant_id text partition key, bin bit[${D}])`);
db.exec(`CREATE VIRTUAL TABLE vf USING vec0(tenant_id text partition key, embedding float[${D}] distance_metric=cosine)`);
let seed = 1;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
const C = 200;
const centers = Array.from({ length: C }, () => Float32Array.from({ length: D }, rnd));
function vec(c, noise) {
  const v = Float32Array.from(centers[c], (x) => x + noise * rnd() * 1.7);
  let n = 0; for (const x of v) n += x * x; n = Math.sqrt(n);
  return v.map((x) => x / n);
}
function bits(v) { const b = new Uint8Array(D / 8); for (let i = 0; i < D; i++) if (v[i] > 0) b[i >> 3] |= 1 << (i & 7); return b; }
const ins = db.prepare('INSERT INTO vf(rowid, tenant_id, embedding) VALUES (?, ?, ?)');
const insb = db.prepare('INSERT INTO vb(rowid, tenant_id, bin) VALUES (?, ?, vec_bit(?))');
let t = Date.now();
db.transaction(() => { for (let i = 1; i <= N; i++) { const v = vec(i % C, 1.0); ins.run(BigInt(i), 't', v); insb.run(BigInt(i), 't', bits(v)); } })();
console.log('insert', Date.now() - t, 'ms');
const knnF = db.prepare('SELECT rowid, distance FROM vf WHERE embedding MATCH ? AND k = ? AND tenant_id = ?');
const knnB = db.prepare('SELECT rowid, distance FROM vb WHERE bin MATCH vec_bit(?) AND k = ? AND tenant_id = ?');
const getF = db.prepare('SELECT rowid, vec_distance_cosine(embedding, ?) d FROM vf WHERE rowid IN (SELECT value FROM json_each(?))');
const time = (f, n = 20) => { const ts = []; let r; for (let i = 0; i < n; i++) { const t0 = process.hrtime.bigint(); r = f(i); ts.push(Number(process.hrtime.bigint() - t0) / 1e6); } ts.sort((a, b) => a - b); return { p50: ts[n >> 1].toFixed(2), r }; };
let recall = 0;
const qs = Array.from({ length: 20 }, (_, i) => vec(i * 7 % C, 1.0));
for (const k of [10, 100, 1000]) console.log('float k', k, time((i) => knnF.all(qs[i], BigInt(k), 't')).p50);
for (const cand of [100, 200, 400]) {
  recall = 0;
  const r = time((i) => {
    const c = knnB.all(bits(qs[i]), BigInt(cand), 't');
    const rr = getF.all(qs[i], JSON.stringify(c.map((x) => x.rowid))).sort((a, b) => a.d - b.d).slice(0, 10);
    const exact = new Set(knnF.all(qs[i], 10n, 't').map((x) => x.rowid));
    recall += rr.filter((x) => exact.has(x.rowid)).length / 10;
    return rr;
  });
  console.log('bit+rerank cand', cand, 'p50(incl exact check)', r.p50, 'recall@10', (recall / 20).toFixed(3));
  console.log('bit only', cand, time((i) => knnB.all(bits(qs[i]), BigInt(cand), 't')).p50);
}
console.log('rss MB', (process.memoryUsage().rss / 1e6).toFixed(0));
