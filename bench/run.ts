// `npm run bench`: JSON lines on stdout. Search and ingestion first, then the graph and
// captures benches when their files exist (bundled by esbuild: they are imported here).
import { benchSearch } from './search.js';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const started = Date.now();
// `--ask`: only the extractive answer's latency (bench/ask.ts), the quick loop for POST /ask.
if (process.argv.includes('--ask')) {
  const { benchAsk } = await import('./ask.js');
  await benchAsk(sizes.length ? sizes : [100_000]);
  console.log(JSON.stringify({ kind: 'bench_total', seconds: Math.round((Date.now() - started) / 1000) }));
  process.exit(0);
}
// `--cold`: only the cold start (a server's start-up and its memory at rest), with and without passages.
if (process.argv.includes('--cold')) {
  const { benchColdStart } = await import('./cold-start.js');
  for (const passages of [false, true]) console.log(JSON.stringify({ kind: 'cold_start', ...(await benchColdStart({ nodes: sizes[0] ?? 100_000, runs: 2, passages })) }));
  console.log(JSON.stringify({ kind: 'bench_total', seconds: Math.round((Date.now() - started) / 1000) }));
  process.exit(0);
}
// `--pg`: only PostgreSQL beside SQLite (below), at RHIZOME_BENCH_PG_NODES: the quick loop for the engines.
if (process.argv.includes('--pg')) {
  if (!process.env.RHIZOME_BENCH_DATABASE_URL) throw new Error('--pg needs RHIZOME_BENCH_DATABASE_URL');
  const { benchPostgres } = await import('./pg.js');
  const pgSizes = (process.env.RHIZOME_BENCH_PG_NODES ?? '10000').split(',').map(Number).filter((n) => n > 0);
  for (const n of pgSizes) await benchPostgres({ nodes: n, url: process.env.RHIZOME_BENCH_DATABASE_URL }, (l) => console.log(JSON.stringify(l)));
  console.log(JSON.stringify({ kind: 'bench_total', seconds: Math.round((Date.now() - started) / 1000) }));
  process.exit(0);
}
// `--graph`: only the graph endpoints' latency (bench/graph.ts), at 100k nodes and 300k links.
if (process.argv.includes('--graph')) {
  const { benchGraph } = await import('./graph.js');
  const iterations = Number(process.env.RHIZOME_BENCH_GRAPH_ITERATIONS) || undefined; // requests per endpoint (default 200)
  console.log(JSON.stringify({ kind: 'graph', ...(await benchGraph({ nodes: 100_000, links: 300_000, iterations })) }));
  console.log(JSON.stringify({ kind: 'bench_total', seconds: Math.round((Date.now() - started) / 1000) }));
  process.exit(0);
}
await benchSearch({ sizes: sizes.length ? sizes : [10_000, 100_000] });
// `--search`: only the search bench above, the quick loop for search speed and memory.
if (process.argv.includes('--search')) {
  console.log(JSON.stringify({ kind: 'bench_total', seconds: Math.round((Date.now() - started) / 1000) }));
  process.exit(0);
}
{
  const { benchAsk } = await import('./ask.js');
  await benchAsk(sizes.length ? sizes : [100_000]);
}

if (process.env.RHIZOME_BENCH_LIBRARY) {
  const { compareLibrary } = await import('./library-compare.js');
  const { HashEmbedder } = await import('../src/embed/hash-embedder.js');
  for (const n of sizes.length ? sizes : [10_000, 100_000]) await compareLibrary(n, new HashEmbedder(), (l) => console.log(JSON.stringify(l)));
}
const graph = (await import('./graph.js').catch(() => null)) as null | { benchGraph: (o: { nodes: number; links: number }) => Promise<object> };
if (graph) console.log(JSON.stringify({ kind: 'graph', ...(await graph.benchGraph({ nodes: 100_000, links: 300_000 })) }));
const captures = (await import('./captures.js').catch(() => null)) as null | { benchCaptures: () => Promise<object> };
if (captures) console.log(JSON.stringify({ kind: 'captures', ...(await captures.benchCaptures()) }));
const archive = (await import('./archive.js').catch(() => null)) as null | { benchArchive: () => Promise<object> };
if (archive) console.log(JSON.stringify({ kind: 'archive', ...(await archive.benchArchive()) }));
const imports = (await import('./import.js').catch(() => null)) as null | { benchImport: () => Promise<object> };
if (imports) console.log(JSON.stringify({ kind: 'import', ...(await imports.benchImport()) }));
const cold = (await import('./cold-start.js').catch(() => null)) as null | { benchColdStart: (o: { nodes: number; runs: number }) => Promise<object> };
if (cold) console.log(JSON.stringify({ kind: 'cold_start', ...(await cold.benchColdStart({ nodes: Math.max(...(sizes.length ? sizes : [100_000]).filter((n) => n <= 100_000), 1000), runs: 3 })) }));
// PostgreSQL beside SQLite, same requests, same run: opt-in, it needs a server.
if (process.env.RHIZOME_BENCH_DATABASE_URL) {
  const { benchPostgres } = await import('./pg.js');
  const pgSizes = (process.env.RHIZOME_BENCH_PG_NODES ?? '10000').split(',').map(Number).filter((n) => n > 0);
  for (const n of pgSizes) await benchPostgres({ nodes: n, url: process.env.RHIZOME_BENCH_DATABASE_URL }, (l) => console.log(JSON.stringify(l)));
}
console.log(JSON.stringify({ kind: 'bench_total', seconds: Math.round((Date.now() - started) / 1000) }));
