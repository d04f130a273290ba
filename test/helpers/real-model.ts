// The bundled model (Universal Sentence Encoder lite) in its real worker thread, shared by
// the tests of one file: loaded once before them, closed after them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { makeTestApp, type TestApp } from './app.js';

export function bundledModel(): WorkerEmbedder {
  return new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rz-model-')) });
}

/**
 * Registers beforeAll/afterAll hooks for a test file: one real model and, unless
 * `app: false`, one Rhizome over it with its job queue running. Read the fields inside tests.
 */
export function useRealModel(opts: { app?: boolean } = {}): { embedder: WorkerEmbedder; t: TestApp } {
  const ctx = {} as { embedder: WorkerEmbedder; t: TestApp };
  beforeAll(async () => {
    ctx.embedder = bundledModel();
    await ctx.embedder.ready;
    if (opts.app !== false) {
      ctx.t = await makeTestApp({ embedder: ctx.embedder });
      await ctx.t.s.queue.start();
    }
  });
  afterAll(async () => {
    await ctx.t?.close();
    await ctx.embedder?.close();
  });
  return ctx;
}
