// Prints the calibration of each model given (use-lite, hash, local:<dir>) as JSON lines.
//   npx tsx bench/lab/calibrate.ts use-lite hash local:test/fixtures/models/tiny-random-bert
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { calibrateModel } from '../../src/search/calibration.js';

for (const model of process.argv.slice(2)) {
  const embedder = model === 'hash' ? new HashEmbedder() : new WorkerEmbedder({ model, cacheDir: mkdtempSync(join(tmpdir(), 'rz-cal-')) });
  try {
    console.log(JSON.stringify({ kind: 'calibration', ...(await calibrateModel(embedder)) }));
  } finally {
    await embedder.close();
  }
}
