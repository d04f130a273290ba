// The composition root's build step: every repository and service over one database,
// constructed and connected, nothing started (see wiring.ts for job handlers, events and
// start-up). HTTP, MCP and the CLI see only the narrow `Services`; the wider `Container`
// (database, repositories, queue, vector store) stays with the server, the wiring and tests.
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { backupStore, type Store } from './db/store.js';
import { PgStore } from './db/store/pg-store.js';
import { memoryLimiters, postgresLimiters } from './repos/limiters.js';
import type { Embedder, ModelState } from './embed/embedder.js';
import { JobQueue } from './jobs/queue.js';
import { StorageState } from './db/storage-errors.js';
import { createLogger, type Logger } from './logger.js';
import { LogMailer, SmtpMailer, type Mailer } from './mail/mailer.js';
import { createRepos } from './repos/index.js';
import { AuthService } from './services/auth/auth.service.js';
import { loadKeys } from './services/auth/secrets.js';
import { buildOidc } from './services/auth/oidc.build.js';
import { TenantsService } from './services/auth/tenants.service.js';
import { buildOAuthServer } from './services/auth/oauth/oauth.build.js';
import { createCaptures } from './services/captures/captures.service.js';
import { ContextService } from './services/graph/context.service.js';
import { GraphHealthService } from './services/graph/graph-health.service.js';
import { LinksService } from './services/graph/links.service.js';
import { SuggestionsService } from './services/graph/suggestions.service.js';
import { EMBED_JOB } from './services/nodes/embed-job.js';
import { EmbeddingService } from './services/nodes/embedding.service.js';
import { ExportService } from './services/interop/export.service.js';
import { ImportsService } from './services/interop/imports.service.js';
import { NodesService } from './services/nodes/nodes.service.js';
import { KeywordWarmer } from './services/nodes/keyword-warmer.js';
import { KeywordRoute } from './services/nodes/keyword-route.js';
import { FEEDBACK_SERVED, parseFeedback } from './search/keyword/feedback.js';
import { SearchService } from './services/nodes/search.service.js';
import { SemanticGates } from './services/nodes/semantic-gates.js';
import { TagsService } from './services/tags/tags.service.js';
import { ParaClassifier } from './services/para/para-classify.service.js';
import { ParaService } from './services/para/para.service.js';
import { VectorStore } from './vectors/vector-store.js';
import { GraphViewRepo } from './repos/graph-view.repo.js';
import { HealthHistoryRepo } from './repos/health-history.repo.js';
import { GraphViewService } from './services/graph-view/graph-view.service.js';
import { HealthHistoryService } from './services/graph-view/health-history.service.js';
import { WebhookOutbox } from './services/webhooks/outbox.js';
import { EventBus } from './services/webhooks/event-bus.js';
import { FeedsService } from './services/feeds/feeds.service.js';
import { feedFetcher } from './services/feeds/feed-fetch.js';
import { RulesService } from './services/rules/rules.service.js';
import { WebhooksService } from './services/webhooks/webhooks.service.js';
import { HighlightsRepo } from './repos/highlights.repo.js';
import { CaptureSnapshotsRepo } from './repos/capture-snapshots.repo.js';
import { HighlightsService } from './services/highlights/highlights.service.js';
import { buildAsk } from './services/ask/ask.build.js';
import { buildOperators } from './services/operators/operators.build.js';

export interface EmbedderStatus {
  state: ModelState;
  model: string;
  dimension: number;
  error?: string;
}

export interface ServiceOptions {
  config: Config;
  /** The SQLite store, or PostgreSQL's on its pool (db/store.ts opens either). */
  db: Store;
  embedder: Embedder & { state?: ModelState; error?: string; ready?: Promise<void> };
  clock?: Clock;
  log?: Logger;
  mailer?: Mailer;
  startedAt?: number;
  /** Tests: the fetch openid-client uses to reach identity providers. */
  oidcFetch?: import('openid-client').CustomFetch;
}

export async function buildContainer(o: ServiceOptions) {
  const clock = o.clock ?? systemClock;
  const log = o.log ?? createLogger(o.config.logLevel);
  const { db, embedder, config } = o;
  const mailer = o.mailer ?? (config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom) : new LogMailer(log));
  // Rate limits count where every process serving this database sees them.
  const limiters = db instanceof PgStore ? postgresLimiters(db.url) : memoryLimiters();
  db.onHookError = (e) => log.error('an after-commit hook failed', e);
  const tx = db; // the store is the unit of work
  const repos = createRepos(db);
  // Remembers a full disk / I/O error until a write succeeds: /health reports it.
  const storage = new StorageState(clock);
  const queue = new JobQueue(repos.jobs, clock, log, 2, storage);
  // What the index budget reports, bound to /metrics once it exists (below).
  const indexEvents: { load?: () => void; evict?: () => void } = {};
  const vectors = new VectorStore({
    repo: repos.vectors, nodes: repos.nodes, tx, passages: repos.passages,
    budget: {
      bytes: config.indexMemoryBytes,
      loadInRequestMax: config.tuning?.indexLoadInRequestMax,
      onLoad: () => indexEvents.load?.(),
      onEvict: () => indexEvents.evict?.(),
      onError: (t, e) => log.error(`loading the vector index of tenant ${t} failed; its searches are answered from storage`, e),
    },
  });
  // Webhooks hear of changes through this outbox, written in each change's transaction.
  const outbox = new WebhookOutbox(repos.webhooks, queue, clock);
  const events = new EventBus(outbox);
  const webhooks = new WebhooksService(tx, repos.webhooks, outbox, clock, config.allowPrivateFetch);

  const keys = await loadKeys(repos.tenants);
  const auth = new AuthService({ keys, clock, mailer, publicUrl: config.publicUrl, ...repos });
  const tenants = new TenantsService(tx, repos.tenants, auth, clock);
  const { signIn, oidc, oidcDevice } = buildOidc({ config, tx, repos, keys, clock, log, auth, tenants, fetch: o.oidcFetch });
  const oauth = buildOAuthServer({ repo: repos.oauth, auth, oidc, tokenHmac: keys.tokenHmac, clock, log, publicUrl: config.publicUrl });

  const embedding = new EmbeddingService({ tx, embedder, nodes: repos.nodes, vectors, queue, clock, log, calibrations: repos.calibrations, queryCacheSize: config.tuning?.queryCache, backlogBatch: config.tuning?.backlogBatch });
  const calibration = () => embedding.ready();
  // The operator's side: operator keys, tenants over the API, /metrics.
  // Ranked keyword queries: one module over the engine's postings (services/nodes/keyword-route.ts).
  const keywordRoute = new KeywordRoute(repos.keywordSource, repos.nodes);
  keywordRoute.feedback = parseFeedback(config.searchFeedback ?? FEEDBACK_SERVED);
  const { operators, tenantAdmin, metrics } = buildOperators({ db, tx, repos, keys, clock, auth, tenants, vectors, embedKind: embedding.jobHandler().kind, keywordBytes: () => keywordRoute.ranker.cache.bytes() });
  indexEvents.load = () => metrics.indexLoads.inc({ index: 'vector' });
  indexEvents.evict = () => metrics.evictions.inc({ index: 'vector' });
  const embedQuery = (text: string) => embedding.embedQuery(text);
  const nodes = new NodesService(tx, repos.nodes, vectors, queue, clock, repos.paraAuto, events);
  const tags = new TagsService(tx, repos.tags, repos.nodes, clock);
  const semanticGates = new SemanticGates({ embedder, vectors, textLengths: async (t, n) => await repos.nodes.textLengths(t, n), stored: repos.semanticGates, now: () => new Date(clock.now()).toISOString() });
  // Highlights on nodes (W3C selectors); search and context lead to them, with their notes.
  const highlights = new HighlightsService(tx, new HighlightsRepo(db), repos.nodes, clock, events);
  const search = new SearchService(keywordRoute, repos.nodes, vectors, embedding, semanticGates, highlights, clock);
  // SQLite reads a tenant's common terms ahead at start; PostgreSQL reads each term on first use (every process of a pool would read them all).
  const keywordWarmer = db.engine === 'sqlite' ? new KeywordWarmer(keywordRoute.ranker, async () => (await repos.tenants.list()).map((t) => t.id), log, { keepInMemory: config.tuning?.keywordMemory }) : null;
  const para = new ParaService(tx, repos.para, clock, queue, repos.paraAuto);
  const paraClassifier = new ParaClassifier({ tx, repo: repos.para, auto: repos.paraAuto, queue, vectors, nodes: repos.nodes, embedder, clock, log, calibration, events });
  const links = new LinksService(tx, repos.links, clock);
  const suggestions = new SuggestionsService({ repo: repos.context, keywords: keywordRoute, vectors, embedQuery, calibration, semanticLine: (t, v) => search.semanticLine(t, v) });
  const context = new ContextService({ search, highlights, links: repos.links, repo: repos.context, vectors, clock, calibration });
  const ask = buildAsk({ config, search, repo: repos.context, limiters, clock, highlights });
  const graphHealth = new GraphHealthService(repos.graphHealth, clock);
  // The dashboard's whole-graph reads and daily health snapshots.
  const graphView = new GraphViewService(tx, new GraphViewRepo(db));
  const healthHistory = new HealthHistoryService(tx, new HealthHistoryRepo(db), graphHealth, clock, log);
  const captures = createCaptures({
    config, tx, repo: repos.captures, clock, log, queue, embedder, embedQuery, vectors,
    nodes: {
      create: async (t, n, dates) => await nodes.create(t, n, dates),
      update: async (t, id, n) => await nodes.update(t, id, n),
      exists: async (t, id) => await repos.nodes.get(t, id) !== undefined,
    },
    para: paraClassifier,
    suggest: async (t, text, limit) => (await suggestions.suggest(t, text, limit)).suggestions,
    links, events,
    highlights,
    snapshots: new CaptureSnapshotsRepo(db),
  });

  const paraItemActive = async (t: string, id: string) => (await repos.para.get(t, id))?.status === 'active';
  const rules = new RulesService({
    tx, repo: repos.rules, clock, nodes, paraItemActive,
    captureFacts: async (t, captureId) => {
      const c = await repos.captures.get(t, captureId);
      return c && { url: c.url, content_type: c.content_type, feed_id: (await repos.feeds.feedOfCapture(t, captureId))?.id ?? null };
    },
    createCapture: async (t, input) => await captures.intake.create(t, input),
  });

  const imports = new ImportsService({
    onNodeImported: async (t, nodeId) => await rules.onImportedNode(t, nodeId),
    tx, repo: repos.imports, clock, log, nodes, para, links, intake: captures.intake, highlights,
    upload: (t, input, origin) => captures.intake.upload(t, input, origin),
  });
  const feedPolls = feedFetcher(config.allowPrivateFetch);
  const feeds = new FeedsService({
    tx, repo: repos.feeds, queue, clock, fetcher: feedPolls,
    paraItemActive,
    fileNode: async (t, nodeId, itemId) => {
      const n = await nodes.get(t, nodeId);
      if (!n.para_item_ids.includes(itemId)) await nodes.update(t, nodeId, { para_item_ids: [...n.para_item_ids, itemId] });
    },
  });
  const exports = new ExportService({ clock, search, links, para, captures: captures.lifecycle, highlights, archive: captures.archive });

  const status = {
    startedAt: o.startedAt ?? Date.now(),
    embedder: (): EmbedderStatus => ({
      state: embedder.state ?? 'ready',
      model: embedder.modelId || config.embedModel,
      dimension: embedder.dimension,
      ...(embedder.error ? { error: embedder.error } : {}),
    }),
    queueDepth: async () => await queue.depth(),
    /** One tenant's queued and running jobs: /health shows a caller only its own. */
    queueDepthOf: async (tenantId: string) => await queue.depthOf(tenantId),
    /** One tenant's notes still waiting for their vectors (passages included): the embedding's progress. */
    embeddingPendingOf: async (tenantId: string) => await queue.depthOfKind(tenantId, EMBED_JOB),
    storage,
  };

  return {
    // What the faces (HTTP, MCP, CLI) use:
    config, log, clock, status, limiters,
    auth, tenants, signIn, oidc, oidcDevice, oauth, operators, tenantAdmin, metrics,
    nodes, search, tags,
    para,
    links, suggestions, context, ask, graphHealth, graphView, healthHistory,
    captures: { intake: captures.intake, lifecycle: captures.lifecycle, archive: captures.archive, linkCheck: captures.linkCheck },
    highlights,
    imports, exports, webhooks, feeds, rules,
    backup: async (file: string) => await backupStore(db, file),
    // The server's insides (wiring, start-up, tests):
    db, tx, repos, queue, vectors, keywordWarmer, keywordRoute, embedder, embedding, paraClassifier, pipeline: captures.pipeline, events, feedPolls,
  };
}

export type Container = Awaited<ReturnType<typeof buildContainer>>;

/** What HTTP, MCP and the CLI may use: services only, never the database or repositories. */
export type Services = Pick<
  Container,
  'config' | 'log' | 'clock' | 'status' | 'limiters' | 'auth' | 'tenants' | 'operators' | 'tenantAdmin' | 'metrics' | 'signIn' | 'oidc' | 'oidcDevice' | 'oauth' | 'nodes' | 'search' | 'tags' | 'para' | 'links' | 'suggestions' | 'context' | 'ask' | 'graphHealth' | 'graphView' | 'healthHistory' | 'captures' | 'highlights' | 'imports' | 'exports' | 'backup' | 'webhooks' | 'feeds' | 'rules'
>;
