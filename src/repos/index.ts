// Every repository over one SQLite connection.
import type { Db } from '../db/open.js';
import { ApiKeysRepo } from './api-keys.repo.js';
import { CalibrationsRepo } from './calibrations.repo.js';
import { CapturesRepo } from './captures.repo.js';
import { ContextRepo } from './context.repo.js';
import { GraphHealthRepo } from './graph-health.repo.js';
import { ImportsRepo } from './imports.repo.js';
import { JobsRepo } from './jobs.repo.js';
import { LinksRepo } from './links.repo.js';
import { NodesRepo } from './nodes.repo.js';
import { OAuthRepo } from './oauth.repo.js';
import { OidcRepo } from './oidc.repo.js';
import { ParaAutoRepo } from './para-auto.repo.js';
import { ParaRepo } from './para.repo.js';
import { SearchRepo } from './search.repo.js';
import { TagsRepo } from './tags.repo.js';
import { TenantsRepo } from './tenants.repo.js';
import { TokensRepo } from './tokens.repo.js';
import { UsersRepo } from './users.repo.js';
import { VectorsRepo } from './vectors.repo.js';

export function createRepos(db: Db) {
  return {
    tenants: new TenantsRepo(db),
    apiKeys: new ApiKeysRepo(db),
    users: new UsersRepo(db),
    tokens: new TokensRepo(db),
    jobs: new JobsRepo(db),
    nodes: new NodesRepo(db),
    search: new SearchRepo(db),
    tags: new TagsRepo(db),
    vectors: new VectorsRepo(db),
    para: new ParaRepo(db),
    paraAuto: new ParaAutoRepo(db),
    calibrations: new CalibrationsRepo(db),
    links: new LinksRepo(db),
    context: new ContextRepo(db),
    graphHealth: new GraphHealthRepo(db),
    captures: new CapturesRepo(db),
    oidc: new OidcRepo(db),
    oauth: new OAuthRepo(db),
    imports: new ImportsRepo(db),
  };
}

export type Repos = ReturnType<typeof createRepos>;
