// Every repository over one store: the SQLite file, or PostgreSQL on a pool. Most
// repositories are one class on both (each engine's SQL side by side where they differ);
// the engine-specific parts — the keyword index and its searches, the vector table — are
// twins behind one interface (src/repos/pg/), and so is the job claim (SKIP LOCKED there).
import type { Database } from '../db/store/contract.js';
import { PgStore } from '../db/store/pg-store.js';
import type { SqliteStore } from '../db/store/sqlite-store.js';
import { PgJobsRepo } from './pg/jobs.pg.js';
import { PgKeywordIndex } from './pg/keyword-index.pg.js';
import { PgVectorsRepo } from './pg/vectors.pg.js';
import { PgKeywordSource } from './pg/keyword-source.pg.js';
import { ApiKeysRepo } from './api-keys.repo.js';
import { CalibrationsRepo } from './calibrations.repo.js';
import { CapturesRepo } from './captures.repo.js';
import { ContextRepo } from './context.repo.js';
import { fts5NodeKeywords, KeywordIndexRepo } from './keyword-index.repo.js';
import { Fts5KeywordSource } from './keyword-source.sqlite.js';
import type { KeywordSource } from '../search/keyword/source.js';
import { GraphHealthRepo } from './graph-health.repo.js';
import { ImportsRepo } from './imports.repo.js';
import { JobsRepo } from './jobs.repo.js';
import { LinksRepo } from './links.repo.js';
import { NodesRepo } from './nodes.repo.js';
import { OAuthRepo } from './oauth.repo.js';
import { OidcRepo } from './oidc.repo.js';
import { ParaAutoRepo } from './para-auto.repo.js';
import { ParaRepo } from './para.repo.js';
import { TagsRepo } from './tags.repo.js';
import { TenantsRepo } from './tenants.repo.js';
import { TokensRepo } from './tokens.repo.js';
import { UsersRepo } from './users.repo.js';
import { VectorsRepo, type VectorsApi } from './vectors.repo.js';
import { PassagesRepo } from './passages.repo.js';
import { WebhooksRepo } from './webhooks.repo.js';
import { FeedsRepo } from './feeds.repo.js';
import { RulesRepo } from './rules.repo.js';
import { SemanticGatesRepo } from './semantic-gates.repo.js';

export function createRepos(db: SqliteStore | PgStore) {
  if (db instanceof PgStore) return createPgRepos(db);
  // One view of the tenants' FTS5 tables for their writer and both readers: a table whose
  // creation rolls back is forgotten by all three.
  const fts = new KeywordIndexRepo(db.handle);
  return {
    ...portableRepos(db),
    nodes: new NodesRepo(db, fts5NodeKeywords(db, fts)),
    /** What the keyword module reads (search/keyword/): FTS5's own tables. */
    keywordSource: new Fts5KeywordSource(db, fts) as KeywordSource,
    jobs: new JobsRepo(db),
    vectors: new VectorsRepo(db) as VectorsApi,
  };
}

function createPgRepos(pg: PgStore) {
  const keywords = new PgKeywordIndex(pg);
  return {
    ...portableRepos(pg),
    nodes: new NodesRepo(pg, keywords),
    keywordSource: new PgKeywordSource(pg) as KeywordSource,
    jobs: new PgJobsRepo(pg) as JobsRepo,
    vectors: new PgVectorsRepo(pg) as VectorsApi,
  };
}

/** The repositories whose SQL both engines run. */
function portableRepos(db: Database) {
  return {
    tenants: new TenantsRepo(db),
    apiKeys: new ApiKeysRepo(db),
    users: new UsersRepo(db),
    tokens: new TokensRepo(db),
    tags: new TagsRepo(db),
    para: new ParaRepo(db),
    paraAuto: new ParaAutoRepo(db),
    calibrations: new CalibrationsRepo(db),
    links: new LinksRepo(db),
    graphHealth: new GraphHealthRepo(db),
    captures: new CapturesRepo(db),
    oidc: new OidcRepo(db),
    oauth: new OAuthRepo(db),
    imports: new ImportsRepo(db),
    webhooks: new WebhooksRepo(db),
    feeds: new FeedsRepo(db),
    rules: new RulesRepo(db),
    passages: new PassagesRepo(db),
    semanticGates: new SemanticGatesRepo(db),
    context: new ContextRepo(db),
  };
}

export type Repos = ReturnType<typeof createRepos>;
