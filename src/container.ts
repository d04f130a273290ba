// Builds every repository and service over one database. HTTP, MCP (over HTTP) and the
// admin CLI commands all receive this one object; nothing below it knows about them.
import { loadKeys } from './services/auth/secrets.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/open.js';
import type { Embedder, ModelState } from './embed/embedder.js';
import { JobQueue } from './jobs/queue.js';
import { createLogger, type Logger } from './logger.js';
import { ApiKeysRepo } from './repos/api-keys.repo.js';
import { JobsRepo } from './repos/jobs.repo.js';
import { TenantsRepo } from './repos/tenants.repo.js';
import { TokensRepo } from './repos/tokens.repo.js';
import { UsersRepo } from './repos/users.repo.js';
import { ParaRepo } from './repos/para.repo.js';
import { ParaService } from './services/para/para.service.js';
import { ParaAutoRepo } from './repos/para-auto.repo.js';
import { ParaClassifier } from './services/para/para-classify.service.js';
import { NodesRepo } from './repos/nodes.repo.js';
import { SearchRepo } from './repos/search.repo.js';
import { VectorsRepo } from './repos/vectors.repo.js';
import { EmbeddingService } from './services/nodes/embedding.service.js';
import { NodesService } from './services/nodes/nodes.service.js';
import { SearchService } from './services/nodes/search.service.js';
import { AuthService } from './services/auth/auth.service.js';
import { LogMailer, SmtpMailer, type Mailer } from './mail/mailer.js';
import { TenantsService } from './services/auth/tenants.service.js';
import { LinksRepo } from './repos/links.repo.js';
import { ContextRepo } from './repos/context.repo.js';
import { GraphHealthRepo } from './repos/graph-health.repo.js';
import { LinksService } from './services/graph/links.service.js';
import { SuggestionsService } from './services/graph/suggestions.service.js';
import { ContextService } from './services/graph/context.service.js';
import { GraphHealthService } from './services/graph/graph-health.service.js';
import { createCaptures, vectorAdopter } from './services/captures/captures.service.js';

export interface EmbedderStatus {
  state: ModelState;
  model: string;
  dimension: number;
  error?: string;
}

export interface ServiceOptions {
  config: Config;
  db: Db;
  embedder: Embedder & { state?: ModelState; error?: string; ready?: Promise<void> };
  clock?: Clock;
  log?: Logger;
  mailer?: Mailer;
  startedAt?: number;
  /** false for admin commands: they never embed, so the model's vector table is left alone. */
  initEmbedding?: boolean;
}

export function createServices(o: ServiceOptions) {
  const clock = o.clock ?? systemClock;
  const log = o.log ?? createLogger(o.config.logLevel);
  const db = o.db;
  const mailer = o.mailer ?? (o.config.smtpUrl ? new SmtpMailer(o.config.smtpUrl, o.config.mailFrom) : new LogMailer(log));

  const repos = {
    tenants: new TenantsRepo(db),
    apiKeys: new ApiKeysRepo(db),
    users: new UsersRepo(db),
    tokens: new TokensRepo(db),
    jobs: new JobsRepo(db),
    nodes: new NodesRepo(db),
    search: new SearchRepo(db),
  };
  const vectors = new VectorsRepo(db);
  const keys = loadKeys(repos.tenants);
  const queue = new JobQueue(repos.jobs, clock, log);
  const embedder = o.embedder;

  const auth = new AuthService({ db, keys, clock, mailer, publicUrl: o.config.publicUrl, ...repos });
  const tenants = new TenantsService(db, repos.tenants, auth, clock);

  const embedderStatus = (): EmbedderStatus => ({
    state: embedder.state ?? 'ready',
    model: embedder.modelId || o.config.embedModel,
    dimension: embedder.dimension,
    ...(embedder.error ? { error: embedder.error } : {}),
  });

  /** Called after vectors for these nodes were written (PARA classification listens here). */
  const afterEmbed: Array<(tenantId: string, nodeIds: string[]) => void> = [];

  const paraAuto = new ParaAutoRepo(db);
  const nodes = new NodesService(db, repos.nodes, vectors, queue, clock, paraAuto);
  const embedding = new EmbeddingService(db, embedder, repos.nodes, vectors, queue, clock, log, afterEmbed);
  if (o.initEmbedding !== false) embedding.init().catch((e) => log.error('embedding initialisation failed', e));
  const search = new SearchService(repos.search, repos.nodes, vectors, embedding);
  afterEmbed.push((tenantId, nodeIds) => search.onEmbedded(tenantId, nodeIds));
  const paraRepo = new ParaRepo(db);
  const para = new ParaService(db, paraRepo, clock, queue, paraAuto);
  const paraClassifier = new ParaClassifier({ db, repo: paraRepo, auto: paraAuto, vectors, nodes: repos.nodes, embedder, clock, log, calibration: () => embedding.ready() });
  paraClassifier.register(queue);
  afterEmbed.push((tenantId, nodeIds) => paraClassifier.enqueueForNodes(queue, tenantId, nodeIds));
  const linksRepo = new LinksRepo(db);
  const contextRepo = new ContextRepo(db);
  const links = new LinksService(db, linksRepo, clock);
  // One k-NN path for everything: the in-memory quantised index search keeps (vec0 holds
  // the exact vectors that `get` reads).
  const nearestNodes = { knn: (t: string, v: Float32Array, k: number) => search.knn(t, v, k), get: (t: string, id: string) => vectors.get(t, id) };
  const calibration = () => embedding.ready();
  const suggestions = new SuggestionsService({ repo: contextRepo, vectors: nearestNodes, embedQuery: (t) => embedding.embedQuery(t), calibration });
  const context = new ContextService({ links: linksRepo, repo: contextRepo, vectors: nearestNodes, clock, embedQuery: (t) => embedding.embedQuery(t), calibration });
  const graphHealth = new GraphHealthService(db, new GraphHealthRepo(db), clock);

  const captures = createCaptures({
    config: o.config, db, clock, log, queue, jobs: repos.jobs, embedder,
    embedQuery: (t) => embedding.embedQuery(t),
    knn: nearestNodes.knn,
    nodes: {
      create: (t, n) => nodes.create(t, n),
      update: (t, id, n) => nodes.update(t, id, n),
      exists: (t, id) => repos.nodes.get(t, id) !== undefined,
      adoptVector: vectorAdopter({ nodesRepo: repos.nodes, vectors, modelId: () => embedder.modelId }),
      afterEmbed,
    },
    para: {
      activeItems: (t) => para.list(t, { status: 'active' }),
      settings: () => paraClassifier.settings,
      itemVectors: (texts) => paraClassifier.embedTexts(texts),
      calibration: () => embedding.ready(),
    },
    suggest: async (t, text, limit) => (await suggestions.suggest(t, text, limit)).suggestions,
  });

  return {
    config: o.config,
    afterEmbed,
    vectors,
    nodes,
    embedding,
    search,
    para,
    paraClassifier,
    links,
    suggestions,
    context,
    graphHealth,
    captures,
    db,
    clock,
    log,
    queue,
    embedder,
    embedderStatus,
    repos,
    auth,
    tenants,
    startedAt: o.startedAt ?? Date.now(),
  };
}

export type Services = ReturnType<typeof createServices>;
