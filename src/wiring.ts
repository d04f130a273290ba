// The composition root's second half: what runs once the container is built. Each step is
// a named function so the server, the admin CLI, the eval harness and tests take exactly
// the ones they need.
import type { Container } from './container.js';

/** Every durable job kind and the service that runs it. */
export function registerJobHandlers(c: Container): void {
  c.queue.register(c.embedding.jobHandler());
  c.queue.register(c.paraClassifier.jobHandler());
  c.queue.register(c.pipeline.jobHandler());
}

/** Who hears what: stored vectors give orphan nodes a chance to be filed into PARA. */
export function wireEvents(c: Container): void {
  c.vectors.onEmbedded(({ tenantId, nodeIds }) => c.paraClassifier.enqueueForNodes(tenantId, nodeIds));
}

/** Handlers and events: a container ready to take requests and run jobs (tests, admin commands). */
export function wire(c: Container): Container {
  registerJobHandlers(c);
  wireEvents(c);
  return c;
}

/**
 * Starts background work: the model's vector table is checked (a new model re-embeds in
 * the background), jobs start running, and each tenant's in-memory vector index is loaded
 * so the first semantic query after a restart does not pay for it (~3 s at 100k nodes);
 * the keyword side's common terms are scored after it (services/nodes/keyword-warmer.ts),
 * so neither delays the server's first answers.
 */
export function startBackground(c: Container): void {
  const interrupted = c.imports.markInterrupted();
  if (interrupted) c.log.info(`${interrupted} import(s) were interrupted by the last stop; importing again completes them`);
  c.queue.start();
  c.embedding.init().then(
    () => {
      const t0 = Date.now();
      const n = c.repos.tenants.list().reduce((sum, t) => sum + c.vectors.warm(t.id), 0);
      c.log.info(`semantic index ready: ${n} vector(s) in ${Date.now() - t0} ms`);
      c.keywordWarmer.start();
    },
    (e) => {
      c.log.error('embedding initialisation failed; keyword search still works', e);
      c.keywordWarmer.start();
    },
  );
}
