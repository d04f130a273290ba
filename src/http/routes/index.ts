// Every /api/v1 route module, in one list. A new resource adds one line here.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Services } from '../../container.js';
import type { AppEnv } from '../router.js';
import { authRoutes } from './auth.js';
import { authOidcRoutes } from './auth-oidc.js';
import { paraRoutes } from './para.js';
import { nodesRoutes } from './nodes.js';
import { linksRoutes } from './links.js';
import { contextRoutes } from './context.js';
import { askRoutes } from './ask.js';
import { graphHealthRoutes } from './graph-health.js';
import { capturesRoutes } from './captures.js';
import { interopRoutes } from './interop.js';
import { tagsRoutes } from './tags.js';
import { graphViewRoutes } from './graph-view.js';
import { webhooksRoutes } from './webhooks.js';
import { feedsRoutes } from './feeds.js';
import { rulesRoutes } from './rules.js';
import { highlightsRoutes } from './highlights.js';
import { captureArchiveRoutes } from './capture-archive.js';
import { adminTenantsRoutes } from './admin-tenants.js';

export const apiRouteModules: Array<(s: Services) => OpenAPIHono<AppEnv>> = [
  authRoutes,
  authOidcRoutes,
  paraRoutes,
  nodesRoutes,
  linksRoutes,
  contextRoutes,
  askRoutes,
  graphHealthRoutes,
  capturesRoutes,
  interopRoutes,
  tagsRoutes,
  graphViewRoutes,
  webhooksRoutes,
  feedsRoutes,
  rulesRoutes,
  highlightsRoutes,
  captureArchiveRoutes,
  adminTenantsRoutes,
];
