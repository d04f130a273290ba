import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open.js';
import { normalize } from '../../src/embed/embedder.js';
import { signBits, VectorsRepo } from '../../src/repos/vectors.repo.js';

const D = 128;
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) - 0.5;
const centres = Array.from({ length: 40 }, () => Float32Array.from({ length: D }, rnd));
const sample = () => normalize(Float32Array.from(centres[Math.floor((rnd() + 0.5) * 39.99)], (x) => x + rnd() * 0.8));

function setup(n: number, exactBelow: number) {
  const db = openDatabase(':memory:');
  db.prepare("INSERT INTO tenants (id, name, created_at) VALUES ('ten_a', 'a', 'x'), ('ten_b', 'b', 'x')").run();
  const repo = new VectorsRepo(db, exactBelow);
  repo.ensureSpace('test', D, 'x');
  const ins = db.prepare("INSERT INTO nodes (id, tenant_id, title, created_at, updated_at, embedded_hash) VALUES (?, ?, 't', 'x', 'x', 'h')");
  const vecs: Float32Array[] = [];
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const seq = Number(ins.run(`nod_${i}`, 'ten_a').lastInsertRowid);
      vecs.push(sample());
      repo.upsert('ten_a', seq, vecs[i]);
    }
  })();
  return { db, repo, vecs };
}

describe('vector k-NN', () => {
  it('packs sign bits the way vec0 bit[] expects', () => {
    const v = new Float32Array(16).fill(-1);
    v[0] = 1;
    v[9] = 1;
    expect(Array.from(signBits(v))).toEqual([1, 2]);
  });

  it('the two-stage search finds what exact search finds (recall@10 >= 0.95) and ranks exactly', () => {
    const { repo, vecs } = setup(3000, 0);
    const exact = new VectorsRepo((repo as unknown as { db: never }).db, Infinity);
    let recall = 0;
    for (let q = 0; q < 30; q++) {
      const query = sample();
      const fast = repo.knn('ten_a', query, 10);
      const truth = new Set(exact.knn('ten_a', query, 10).map((h) => h.id));
      recall += fast.filter((h) => truth.has(h.id)).length / 10;
      for (let i = 1; i < fast.length; i++) expect(fast[i].distance).toBeGreaterThanOrEqual(fast[i - 1].distance);
    }
    expect(recall / 30).toBeGreaterThanOrEqual(0.95);
    const self = repo.knn('ten_a', vecs[123], 1)[0];
    expect(self.id).toBe('nod_123');
    expect(self.distance).toBeCloseTo(0, 5);
  });

  it('keeps tenants apart, counts, and forgets deleted vectors', () => {
    const { db, repo, vecs } = setup(50, 0);
    expect(repo.count('ten_a')).toBe(50);
    expect(repo.knn('ten_b', vecs[0], 10)).toEqual([]);
    const seq = db.prepare("SELECT seq FROM nodes WHERE id = 'nod_0'").pluck().get() as number;
    repo.delete('ten_a', seq);
    expect(repo.count('ten_a')).toBe(49);
    expect(repo.knn('ten_a', vecs[0], 5).map((h) => h.id)).not.toContain('nod_0');
    repo.upsert('ten_a', seq, vecs[0]);
    repo.upsert('ten_a', seq, vecs[0]);
    expect(repo.count('ten_a')).toBe(50);
  });
});

describe('embedding space safety', () => {
  it('refuses to replace the vector table for a model with no id or dimension', () => {
    const { repo, vecs } = setup(5, 0);
    expect(() => repo.ensureSpace('', 0, 'x')).toThrow(/refusing/);
    expect(() => repo.ensureSpace('lazy', 0, 'x')).toThrow(/refusing/);
    expect(repo.space()).toEqual({ model_id: 'test', dimension: D });
    expect(repo.knn('ten_a', vecs[0], 1)[0].id).toBe('nod_0');
  });
});
