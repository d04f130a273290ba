// The composition root's second half: what runs once the container is built. Each step is
// a named function so the server, the admin CLI, the eval harness and tests take exactly
// the ones they need.
import type { Container } from './container.js';
import { PgVectorListener } from './repos/pg/vector-listener.pg.js';
import { deliveryJobHandler } from './services/webhooks/delivery.js';
import { feedPollHandler } from './services/feeds/feed-poll.js';

/** Every durable job kind and the service that runs it. */
export function registerJobHandlers(c: Container): void {
  c.queue.register(c.embedding.jobHandler());
  c.queue.register(c.paraClassifier.jobHandler());
  c.queue.register(c.pipeline.jobHandler());
  c.queue.register(feedPollHandler({ tx: c.tx, repo: c.repos.feeds, queue: c.queue, clock: c.clock, log: c.log, fetcher: c.feedPolls, captures: c.captures.intake, rules: c.rules }));
  c.queue.register(deliveryJobHandler({ repo: c.repos.webhooks, clock: c.clock, log: c.log, allowPrivate: c.config.allowPrivateFetch }));
  c.queue.register(c.captures.archive.jobHandler());
  c.queue.register(c.captures.linkCheck.jobHandler());
}

/** Who hears what: stored vectors give orphan nodes a chance to be filed into PARA. */
export function wireEvents(c: Container): void {
  c.vectors.onEmbedded(({ tenantId, nodeIds }) => {
    c.queue.track(c.paraClassifier.enqueueForNodes(tenantId, nodeIds).catch((e) => c.log.error('queueing PARA classification failed', e)));
  });
  // The feed's own PARA item first, then the rules in their order.
  c.events.on('capture.completed', async (t, e) => await c.feeds.onCaptureCompleted(t, e.capture_id, e.node_id));
  c.events.on('capture.completed', async (t, e) => await c.rules.onCaptureCompleted(t, e.capture_id, e.node_id));
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
 * in slices (~1,000 vectors per event-loop turn, so requests are answered throughout;
 * semantic queries are answered exactly from vec0 until a tenant's index is complete);
 * the keyword side's terms are read into memory after it (services/nodes/keyword-warmer.ts).
 */
export async function startBackground(c: Container): Promise<void> {
  const interrupted = await c.imports.markInterrupted();
  if (interrupted) c.log.info(`${interrupted} import(s) were interrupted by the last stop; importing again completes them`);
  await c.queue.start();
  startLinkChecks(c);
  c.embedding.init().then(
    async () => {
      const t0 = Date.now();
      const { vectors, tenants } = await loadIndexes(c, (await c.repos.tenants.list()).map((t) => t.id));
      c.log.info(`semantic index ready: ${vectors} vector(s) in ${Date.now() - t0} ms`);
      c.keywordWarmer?.start();
      // Then each loaded tenant's semantic gate (read from storage, or measured once), beside
      // the keyword warm-up: its first query by meaning finds it ready.
      for (const id of tenants) await c.search.prepareGate(id).catch((e: unknown) => c.log.error(`measuring the semantic gate of tenant ${id} failed`, e));
    },
    (e) => {
      c.log.error('embedding initialisation failed; keyword search still works', e);
      c.keywordWarmer?.start();
    },
  );
}

/**
 * The weekly check for captured pages whose original is gone: every few hours, each tenant
 * whose last check is a week old gets one queued (the first look comes a little after start).
 */
function startLinkChecks(c: Container): void {
  const due = async () => {
    try {
      await c.captures.linkCheck.scheduleDue((await c.repos.tenants.list()).map((t) => t.id));
    } catch (e) {
      c.log.error('scheduling link checks failed', e);
    }
  };
  setTimeout(() => {
    void due();
    setInterval(() => void due(), LINK_CHECK_LOOK_MS).unref();
  }, LINK_CHECK_FIRST_MS).unref();
}
const LINK_CHECK_FIRST_MS = 10 * 60_000;
const LINK_CHECK_LOOK_MS = 6 * 3600_000;

/**
 * Loads these tenants' vector indexes in the background, a slice per event-loop turn, until
 * the indexes' memory budget is full (the rest load on their first request); returns how
 * many vectors, and which tenants.
 */
async function loadIndexes(c: Container, tenantIds: string[]): Promise<{ vectors: number; tenants: string[] }> {
  let n = 0;
  const loaded: string[] = [];
  const budget = c.vectors.budgetBytes;
  for (const id of tenantIds) {
    await c.vectors.willLoad([id]);
    while (!await c.vectors.loadSome(id, INDEX_SLICE)) await new Promise((r) => setImmediate(r));
    // Full: the last one goes back out and the rest load on their first request (evicting
    // as it went, start-up would read every tenant's vectors and keep the last ones listed).
    // The first stays, whatever its size: a single tenant larger than the budget is held
    // whole (a laptop's one big notebook is not read at start only to be dropped).
    const held = c.vectors.heldBytes();
    const full = budget !== null && [...held.values()].reduce((a, b) => a + b, 0) > budget;
    if (full && held.size > 1) {
      c.vectors.evict(id);
      break;
    }
    n += await c.vectors.warm(id);
    loaded.push(id);
    if (full) break;
  }
  return { vectors: n, tenants: loaded };
}

/**
 * On PostgreSQL, other processes may write vectors too: listen for their commits and keep
 * the indexes held current; after missed notifications, reload the indexes held.
 */
export function followOtherProcesses(c: Container, url: string): PgVectorListener {
  const listener = new PgVectorListener({
    url,
    log: c.log,
    onChanges: async (changes) => await c.vectors.applyChanges(changes),
    onGap: () => {
      const held = c.vectors.resetIndexes();
      loadIndexes(c, held).catch((e) => c.log.error('reloading vector indexes failed', e));
    },
  });
  void listener.start();
  return listener;
}

/** Vectors read into the in-memory index per event-loop turn at start-up (~15 ms at 512-d). */
const INDEX_SLICE = 1000;
