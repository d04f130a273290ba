// recall@10 of sign-bit coarse search + exact rerank on the cached real USE vectors,
// with and without centring the codes on the corpus mean.
import { readFileSync } from 'node:fs';
const vecs = [];
for (const n of ['cisi', 'debian', 'pydoc']) {
  const b = readFileSync(`/tmp/rz-eval/${n}.vec.bin`);
  const a = new Float32Array(b.buffer, b.byteOffset, b.length / 4);
  for (let i = 0; i < a.length / 512; i++) vecs.push(a.subarray(i * 512, (i + 1) * 512));
}
const D = 512, N = vecs.length;
const mean = new Float32Array(D);
for (const v of vecs) for (let i = 0; i < D; i++) mean[i] += v[i] / N;
const dot = (a, b) => { let s = 0; for (let i = 0; i < D; i++) s += a[i] * b[i]; return s; };
const code = (v, m) => { const c = new Uint8Array(D); for (let i = 0; i < D; i++) c[i] = v[i] - (m ? m[i] : 0) > 0 ? 1 : 0; return c; };
for (const centre of [false, true]) {
  const codes = vecs.map((v) => code(v, centre ? mean : null));
  for (const cand of [30, 60, 120]) {
    let rec = 0, nq = 0;
    for (let qi = 0; qi < N; qi += 37) {
      const q = vecs[qi]; const qc = code(q, centre ? mean : null);
      const exact = vecs.map((v, i) => [i, dot(q, v)]).sort((a, b) => b[1] - a[1]).slice(1, 11).map((x) => x[0]);
      const ham = codes.map((c, i) => { let h = 0; for (let j = 0; j < D; j++) h += c[j] ^ qc[j]; return [i, h]; }).sort((a, b) => a[1] - b[1]).slice(0, cand + 1).map((x) => x[0]);
      const re = ham.map((i) => [i, dot(q, vecs[i])]).sort((a, b) => b[1] - a[1]).filter((x) => x[0] !== qi).slice(0, 10).map((x) => x[0]);
      const s = new Set(exact); rec += re.filter((i) => s.has(i)).length / 10; nq++;
    }
    console.log(`N=${N} centre=${centre} candidates=${cand} (${((cand / N) * 100).toFixed(1)}%) recall@10=${(rec / nq).toFixed(3)}`);
  }
}

// Two-pass: a prefix of the code (first P bits) keeps 1/8, then the full code picks the candidates.
for (const P of [128, 256]) {
  const codes = vecs.map((v) => code(v, null));
  for (const cand of [60, 120]) {
    let rec = 0, nq = 0;
    for (let qi = 0; qi < N; qi += 37) {
      const q = vecs[qi]; const qc = code(q, null);
      const exact = vecs.map((v, i) => [i, dot(q, v)]).sort((a, b) => b[1] - a[1]).slice(1, 11).map((x) => x[0]);
      const pre = codes.map((c, i) => { let h = 0; for (let j = 0; j < P; j++) h += c[j] ^ qc[j]; return [i, h]; }).sort((a, b) => a[1] - b[1]).slice(0, Math.ceil(N / 8)).map((x) => x[0]);
      const ham = pre.map((i) => { let h = 0; for (let j = 0; j < D; j++) h += codes[i][j] ^ qc[j]; return [i, h]; }).sort((a, b) => a[1] - b[1]).slice(0, cand + 1).map((x) => x[0]);
      const re = ham.map((i) => [i, dot(q, vecs[i])]).sort((a, b) => b[1] - a[1]).filter((x) => x[0] !== qi).slice(0, 10).map((x) => x[0]);
      const s = new Set(exact); rec += re.filter((i) => s.has(i)).length / 10; nq++;
    }
    console.log(`two-pass prefix=${P} bits keep 1/8, candidates=${cand} recall@10=${(rec / nq).toFixed(3)}`);
  }
}
