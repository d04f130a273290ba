import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
const N = 100000, D = 512;
const db = new Database(':memory:'); sqliteVec.load(db);
db.exec(`CREATE VIRTUAL TABLE vf USING vec0(tenant_id text partition key, embedding float[${D}] distance_metric=cosine)`);
const ins = db.prepare('INSERT INTO vf(rowid, tenant_id, embedding) VALUES (?, ?, ?)');
db.transaction(() => { for (let i = 1; i <= N; i++) ins.run(BigInt(i), 't', Float32Array.from({ length: D }, Math.random)); })();
const q = Float32Array.from({ length: D }, Math.random);
const getF = db.prepare('SELECT rowid, vec_distance_cosine(embedding, ?) d FROM vf WHERE rowid IN (SELECT value FROM json_each(?))');
const getOne = db.prepare('SELECT embedding FROM vf WHERE rowid = ?');
for (const n of [100, 200, 400]) {
  const ids = Array.from({ length: n }, () => 1 + Math.floor(Math.random() * N));
  for (let r = 0; r < 3; r++) { const t = performance.now(); getF.all(q, JSON.stringify(ids)); const a = performance.now() - t;
    const t2 = performance.now(); for (const id of ids) getOne.get(BigInt(id)); console.log(n, 'IN', a.toFixed(2), 'each', (performance.now() - t2).toFixed(2)); }
}
const t = performance.now(); let c = 0; for (const r of db.prepare('SELECT rowid, embedding FROM vf WHERE tenant_id = ?').iterate('t')) c++; console.log('full read', c, (performance.now() - t).toFixed(0), 'ms');
