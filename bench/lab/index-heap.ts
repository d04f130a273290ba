// What the in-memory vector indexes keep on V8's heap beside their typed arrays (the seq →
// slot map, node ids, passages' owners and lists), measured: the constants the memory budget
// counts (vectors/semantic-index.ts ID_ENTRY_BYTES and its neighbours, quantized-index.ts
// SLOT_MAP_BYTES) come from this, and it prints the budget's count beside the heap measured.
//   npx esbuild bench/lab/index-heap.ts --bundle --platform=node --format=esm --outfile=/tmp/index-heap.mjs
//   node --expose-gc /tmp/index-heap.mjs            (node vectors)
//   node --expose-gc /tmp/index-heap.mjs passages   (three passages a node)
import { SemanticIndexes, type StoredVector } from '../../src/vectors/semantic-index.js';

const TENANTS = Number(process.env.TENANTS ?? 200);
const PER_TENANT = 1000;
const D = 512;
const passages = process.argv[2] === 'passages';
const embedding = Buffer.from(new Float32Array(D).map(() => Math.random() - 0.5).buffer);
// Flat strings, as the drivers hand ids over (a template's concatenation would be a rope).
const nodeId = (t: number, i: number) => Buffer.from(`nod_01${String(t).padStart(8, '0')}${String(i).padStart(16, '0')}`).toString('latin1');
const indexes = new SemanticIndexes({
  space: async () => ({ model_id: 'lab', dimension: D }),
  page: async (tenant, after, limit) => {
    const t = Number(tenant.slice(4));
    const vectors: StoredVector[] = [];
    for (let i = after; i < Math.min(PER_TENANT, after + limit); i++) {
      const node = Math.floor(i / 3);
      vectors.push(passages ? { seq: 10_000_000 + t * PER_TENANT + i, id: nodeId(t, node), owner: t * PER_TENANT + node + 1, embedding } : { seq: t * PER_TENANT + i + 1, id: nodeId(t, i), embedding });
    }
    return { vectors, last: after + limit >= PER_TENANT ? null : after + limit };
  },
  some: async () => [],
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
gc();
const before = process.memoryUsage();
for (let t = 0; t < TENANTS; t++) await indexes.warm(`ten_${t}`);
gc();
const after = process.memoryUsage();
const vectors = TENANTS * PER_TENANT;
const counted = [...indexes.held().values()].reduce((a, b) => a + b, 0);
const measured = after.heapUsed - before.heapUsed + (after.arrayBuffers - before.arrayBuffers);
console.log(JSON.stringify({
  kind: 'index_heap',
  passages,
  vectors,
  heap_bytes_per_vector: Math.round((after.heapUsed - before.heapUsed) / vectors),
  array_bytes_per_vector: Math.round((after.arrayBuffers - before.arrayBuffers) / vectors),
  counted_mb: Math.round(counted / 1048576),
  measured_mb: Math.round(measured / 1048576),
  heap_total_mb: Math.round(after.heapTotal / 1048576),
  rss_mb: Math.round(after.rss / 1048576),
}));
