// Vector arithmetic on embeddings (unit-length Float32Arrays): the one copy of it.

/** Scales v to unit length in place (a zero vector stays zero) and returns it. */
export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

/** Dot product; for unit vectors, the cosine similarity. 0 when the dimensions differ. */
export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** The normalised mean direction of vectors of one dimension (others are skipped); null for none. */
export function centroid(vs: Float32Array[]): Float32Array | null {
  const usable = vs.filter((v) => v.length === vs[0]?.length);
  if (usable.length === 0) return null;
  const c = new Float32Array(usable[0].length);
  for (const v of usable) for (let i = 0; i < c.length; i++) c[i] += v[i];
  return normalize(c);
}
