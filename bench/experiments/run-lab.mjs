import { setup, evaluate, ftsSearch, knn, words, STOP, expansionTerms } from './rank-lab.mjs';

const colls = (process.argv[2] ?? 'cisi,debian,pydoc').split(',');
const maxQ = 300;

const kwTerms = (t) => [...new Set(words(t).filter((w) => !STOP.has(w)))];
const allTerms = (t) => [...new Set(words(t))];

function minmax(list) {
  if (!list.length) return new Map();
  const mx = list[0].s, mn = list[list.length - 1].s;
  return new Map(list.map(({ i, s }) => [i, mx > mn ? (s - mn) / (mx - mn) : 1]));
}
function maxnorm(list) {
  if (!list.length) return new Map();
  const mx = list[0].s;
  return new Map(list.map(({ i, s }) => [i, mx > 0 ? s / mx : 0]));
}
const ids = (l) => l.map((x) => x.i);

function keyword(q, env, o = {}) {
  const terms = kwTerms(q.text);
  const W = o.weights ?? [1, 1, 1, 1];
  let first = ftsSearch(env, terms.length ? terms : allTerms(q.text), W, 1000);
  if (!o.prf || first.length < 3) return first;
  const exp = expansionTerms(env, first, terms, o.prf);
  if (!exp.length) return first;
  const second = ftsSearch(env, [...terms, ...exp.map((e) => e.form)], W, 1000);
  // interpolate: original pass and expanded pass, both normalised
  const a = maxnorm(first), b = maxnorm(second);
  const beta = o.prf.beta ?? 0.5;
  const u = new Set([...a.keys(), ...b.keys()]);
  return [...u].map((i) => ({ i, s: (1 - beta) * (a.get(i) ?? 0) + beta * (b.get(i) ?? 0) })).sort((x, y) => y.s - x.s);
}

function fuseConvex(kw, sem, alpha, norm = minmax, depth = 100) {
  const a = norm(kw.slice(0, depth)), b = norm(sem.slice(0, depth));
  const u = new Set([...a.keys(), ...b.keys()]);
  return [...u].map((i) => ({ i, s: alpha * (a.get(i) ?? 0) + (1 - alpha) * (b.get(i) ?? 0) })).sort((x, y) => y.s - x.s);
}
function rrf(lists, k = 60) {
  const m = new Map();
  for (const l of lists) l.forEach((x, r) => m.set(x.i, (m.get(x.i) ?? 0) + 1 / (k + r + 1)));
  return [...m].map(([i, s]) => ({ i, s })).sort((a, b) => b.s - a.s);
}

// semantic score relative to the corpus: cosine minus a query's typical cosine
function semZ(list) {
  const top = list.slice(0, 100);
  const mean = top.reduce((s, x) => s + x.s, 0) / top.length;
  const sd = Math.sqrt(top.reduce((s, x) => s + (x.s - mean) ** 2, 0) / top.length) || 1;
  return list.map(({ i, s }) => ({ i, s: (s - mean) / sd }));
}

const variants = {
  bm25: (q, e) => ids(ftsSearch(e, allTerms(q.text))),
  sem: (q, e) => ids(knn(e, e.qv.get(q._id))),
  kw_stop: (q, e) => ids(keyword(q, e)),
  kw_stop_t2: (q, e) => ids(keyword(q, e, { weights: [2, 1, 1, 1] })),
  kw_prf: (q, e) => ids(keyword(q, e, { weights: [2, 1, 1, 1], prf: { fbDocs: 10, fbTerms: 10, beta: 0.5 } })),
  kw_prf3: (q, e) => ids(keyword(q, e, { weights: [2, 1, 1, 1], prf: { fbDocs: 10, fbTerms: 10, beta: 0.3 } })),
  rrf_base: (q, e) => ids(rrf([ftsSearch(e, allTerms(q.text)), knn(e, e.qv.get(q._id))])),
  rrf_kw: (q, e) => ids(rrf([keyword(q, e, { weights: [2, 1, 1, 1] }), knn(e, e.qv.get(q._id))])),
  cvx5: (q, e) => ids(fuseConvex(keyword(q, e, { weights: [2, 1, 1, 1] }), knn(e, e.qv.get(q._id)), 0.5)),
  cvx6: (q, e) => ids(fuseConvex(keyword(q, e, { weights: [2, 1, 1, 1] }), knn(e, e.qv.get(q._id)), 0.6)),
  cvx7: (q, e) => ids(fuseConvex(keyword(q, e, { weights: [2, 1, 1, 1] }), knn(e, e.qv.get(q._id)), 0.7)),
  cvx6prf: (q, e) => ids(fuseConvex(keyword(q, e, { weights: [2, 1, 1, 1], prf: { beta: 0.5 } }), knn(e, e.qv.get(q._id)), 0.6)),
};

// Rocchio on vectors: move the query toward the top docs of a first (keyword or fused) pass.
function rocchio(e, qv, first, { k = 5, gamma = 0.5 } = {}) {
  const v = Float32Array.from(qv);
  const top = first.slice(0, k);
  if (!top.length) return v;
  for (const { i } of top) { const d = e.dv(i); for (let j = 0; j < 512; j++) v[j] += (gamma / top.length) * d[j]; }
  let n = 0; for (const x of v) n += x * x; n = Math.sqrt(n);
  for (let j = 0; j < 512; j++) v[j] /= n;
  return v;
}
const W4 = [4, 2, 1, 3];
Object.assign(variants, {
  kw_w4: (q, e) => ids(keyword(q, e, { weights: W4 })),
  cvx7_w4: (q, e) => ids(fuseConvex(keyword(q, e, { weights: W4 }), knn(e, e.qv.get(q._id)), 0.7)),
  cvx8: (q, e) => ids(fuseConvex(keyword(q, e, { weights: [2,1,1,1] }), knn(e, e.qv.get(q._id)), 0.8)),
  cvx7_z: (q, e) => ids(fuseConvex(keyword(q, e, { weights: [2,1,1,1] }), semZ(knn(e, e.qv.get(q._id))), 0.7)),
  cvx7_max: (q, e) => ids(fuseConvex(keyword(q, e, { weights: [2,1,1,1] }), knn(e, e.qv.get(q._id)), 0.7, maxnorm)),
  sem_roc: (q, e) => { const kw = keyword(q, e, { weights: [2,1,1,1] }); return ids(knn(e, rocchio(e, e.qv.get(q._id), kw))); },
  cvx7_roc: (q, e) => { const kw = keyword(q, e, { weights: [2,1,1,1] }); return ids(fuseConvex(kw, knn(e, rocchio(e, e.qv.get(q._id), kw)), 0.7)); },
  cvx5_roc: (q, e) => { const kw = keyword(q, e, { weights: [2,1,1,1] }); return ids(fuseConvex(kw, knn(e, rocchio(e, e.qv.get(q._id), kw)), 0.5)); },
  cvx5_roc1: (q, e) => { const kw = keyword(q, e, { weights: [2,1,1,1] }); return ids(fuseConvex(kw, knn(e, rocchio(e, e.qv.get(q._id), kw, {k:5,gamma:1})), 0.5)); },
  cvx7_prf_roc: (q, e) => { const kw = keyword(q, e, { weights: [2,1,1,1], prf: { beta: 0.3 } }); return ids(fuseConvex(kw, knn(e, rocchio(e, e.qv.get(q._id), kw)), 0.7)); },
});

const gap = (l, n = 10) => (l.length ? (l[0].s - (l[Math.min(n, l.length) - 1].s)) / (Math.abs(l[0].s) || 1) : 0);
function adaptive(q, e, o = {}) {
  const kw = keyword(q, e, { weights: [2, 1, 1, 1], ...(o.prf ? { prf: o.prf } : {}) });
  let sem = knn(e, e.qv.get(q._id));
  if (o.roc) sem = knn(e, rocchio(e, e.qv.get(q._id), kw, o.roc));
  const kg = gap(kw), sg = gap(sem);
  let alpha;
  if (o.kind === 'kgap') alpha = Math.min(0.9, Math.max(0.55, 0.55 + 0.6 * kg));
  else if (o.kind === 'ratio') alpha = 0.5 + 0.4 * (kg / (kg + sg + 1e-9));
  else if (o.kind === 'len') { const n = words(q.text).filter((w) => !STOP.has(w)).length; alpha = n <= 4 ? 0.8 : 0.7; }
  if (!kw.length) alpha = 0;
  return ids(fuseConvex(kw, sem, alpha, o.norm ?? minmax));
}
Object.assign(variants, {
  ad_kgap: (q, e) => adaptive(q, e, { kind: 'kgap' }),
  ad_ratio: (q, e) => adaptive(q, e, { kind: 'ratio' }),
  ad_len: (q, e) => adaptive(q, e, { kind: 'len' }),
  ad_ratio_roc: (q, e) => adaptive(q, e, { kind: 'ratio', roc: { k: 5, gamma: 0.5 } }),
  ad_ratio_max: (q, e) => adaptive(q, e, { kind: 'ratio', norm: maxnorm }),
});

function twoStage(q, e, o = {}) {
  const W = o.weights ?? [2, 1, 1, 1];
  const n = words(q.text).filter((w) => !STOP.has(w)).length;
  const alpha = o.alpha ?? (n <= 4 ? 0.8 : 0.7);
  const kw = keyword(q, e, { weights: W });
  const qv = e.qv.get(q._id);
  const fused = fuseConvex(kw, knn(e, qv), kw.length ? alpha : 0);
  // second pass: both sides fed back from the fused top docs
  let kw2 = kw;
  if (o.kprf) {
    const terms = [...new Set(words(q.text).filter((w) => !STOP.has(w)))];
    const exp = expansionTerms(e, fused.slice(0, 10), terms, { fbDocs: 10, fbTerms: o.kprf, minDocs: 2 });
    if (exp.length) {
      const second = ftsSearch(e, [...terms, ...exp.map((x) => x.form)], W, 1000);
      const a = maxnorm(kw), b = maxnorm(second);
      const u = new Set([...a.keys(), ...b.keys()]);
      kw2 = [...u].map((i) => ({ i, s: 0.7 * (a.get(i) ?? 0) + 0.3 * (b.get(i) ?? 0) })).sort((x, y) => y.s - x.s);
    }
  }
  const sem2 = o.roc ? knn(e, rocchio(e, qv, fused, o.roc)) : knn(e, qv);
  return ids(fuseConvex(kw2, sem2, kw2.length ? alpha : 0));
}
Object.assign(variants, {
  cvx75: (q, e) => ids(fuseConvex(keyword(q, e, { weights: [2,1,1,1] }), knn(e, e.qv.get(q._id)), 0.75)),
  ts_roc: (q, e) => twoStage(q, e, { roc: { k: 5, gamma: 0.5 } }),
  ts_roc_w4: (q, e) => twoStage(q, e, { roc: { k: 5, gamma: 0.5 }, weights: W4 }),
  ts_roc10: (q, e) => twoStage(q, e, { roc: { k: 10, gamma: 1 } }),
  ts_kprf: (q, e) => twoStage(q, e, { kprf: 10 }),
  ts_both: (q, e) => twoStage(q, e, { kprf: 10, roc: { k: 5, gamma: 0.5 } }),
});

function adLen(q, e, depth, W = [2, 1, 1, 1], short = 0.8, long = 0.7) {
  const n = words(q.text).filter((w) => !STOP.has(w)).length;
  const kw = keyword(q, e, { weights: W });
  return ids(fuseConvex(kw, knn(e, e.qv.get(q._id)), kw.length ? (n <= 4 ? short : long) : 0, minmax, depth));
}
Object.assign(variants, {
  adl_d50: (q, e) => adLen(q, e, 50),
  adl_d200: (q, e) => adLen(q, e, 200),
  adl_d1000: (q, e) => adLen(q, e, 1000),
  adl_w3: (q, e) => adLen(q, e, 100, [3, 2, 1, 2]),
  adl_w4: (q, e) => adLen(q, e, 100, [4, 2, 1, 3]),
  adl_65: (q, e) => adLen(q, e, 100, [2, 1, 1, 1], 0.8, 0.65),
});
const only = process.argv[3]?.split(',');
for (const name of colls) {
  const env = setup(name);
  env.queries = env.queries.slice(0, maxQ);
  const base = evaluate(env, variants.bm25);
  const rows = [];
  for (const [vn, fn] of Object.entries(variants)) {
    if (only && !only.includes(vn) && vn !== 'bm25') continue;
    const r = vn === 'bm25' ? base : evaluate(env, fn);
    const odd = evaluate(env, fn, (j) => j % 2 === 1), even = evaluate(env, fn, (j) => j % 2 === 0);
    rows.push(`${name.padEnd(7)} ${vn.padEnd(12)} nDCG@10 ${r.ndcg.toFixed(4)} (${((r.ndcg / base.ndcg - 1) * 100).toFixed(1).padStart(6)}%)  R@100 ${r.recall.toFixed(4)}  odd ${odd.ndcg.toFixed(4)} even ${even.ndcg.toFixed(4)}`);
  }
  console.log(rows.join('\n'));
}
