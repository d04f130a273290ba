// Classifier threshold / margin sweep on the PARA corpus with the real model: precision
// and coverage of the cold, warm and the three issue scenarios for each setting.
//   npx esbuild bench/lab/para-sweep.ts --bundle --platform=node --format=esm --packages=external --outfile=dist/lab-para.mjs && node dist/lab-para.mjs 0.2:0.1 0.3:0.1
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { evaluateParaClassification } from '../eval/para.js';

const embedder = new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rz-para-')) });
try {
  for (const arg of process.argv.slice(2)) {
    const [threshold, margin] = arg.split(':').map(Number);
    const r = await evaluateParaClassification({ embedder, settings: { threshold, margin } });
    const row = [['cold', r] as const, ['warm', r.warm] as const, ...r.scenarios.map((x) => [x.scenario, x] as const)].map(([k, x]) => `${k} ${x.precision}/${x.coverage}`);
    console.log(JSON.stringify({ kind: 'para_sweep', threshold, margin, results: row.join('  ') }));
  }
} finally {
  await embedder.close();
}
