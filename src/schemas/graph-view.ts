// Shapes of the dashboard's whole-tenant reads: the graph explorer's nodes and links, the
// daily graph-health history and the "needs attention" inbox.
import { z } from '@hono/zod-openapi';
import { LINK_TYPES, NODE_STATUSES } from './enums.js';

export const GRAPH_MAX_NODES = 20_000;
export const GRAPH_MAX_LINKS = 60_000;

export const GraphQuery = z.object({
  limit: z.coerce.number().int().min(1).max(GRAPH_MAX_NODES).default(5000)
    .openapi({ description: `Most nodes returned (the most recently updated first); at most ${GRAPH_MAX_NODES}` }),
});

export const GraphNode = z
  .object({
    id: z.string(),
    title: z.string(),
    status: z.enum(NODE_STATUSES),
    para_item_ids: z.array(z.string()),
    tags: z.array(z.string()),
    degree: z.number().int().openapi({ description: 'Links of the node in the whole graph (not only among the nodes returned)' }),
  })
  .openapi('GraphNode');

export const GraphLink = z
  .object({ source: z.string(), target: z.string(), type: z.enum(LINK_TYPES) })
  .openapi('GraphLink');

export const GraphView = z
  .object({
    nodes: z.array(GraphNode),
    links: z.array(GraphLink).openapi({ description: `Each link once (not its reverse), only between nodes returned; at most ${GRAPH_MAX_LINKS}` }),
    total_nodes: z.number().int(),
    total_links: z.number().int().openapi({ description: 'Links in the whole graph, each counted once' }),
    truncated: z.boolean().openapi({ description: 'True when nodes or links were left out by the caps' }),
  })
  .openapi('GraphView');

export const HealthHistoryQuery = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30).openapi({ description: 'Days back from today (UTC), today included' }),
});

export const HealthSnapshot = z
  .object({
    day: z.string().openapi({ description: 'UTC date, YYYY-MM-DD' }),
    total_nodes: z.number().int(),
    validated_nodes: z.number().int(),
    total_links: z.number().int(),
    total_captures: z.number().int(),
    failed_captures: z.number().int(),
    stale_nodes: z.number().int(),
    orphan_nodes: z.number().int(),
  })
  .openapi('HealthSnapshot');

export const HealthHistory = z
  .object({ days: z.array(HealthSnapshot).openapi({ description: 'Oldest first; days without a snapshot are absent' }) })
  .openapi('HealthHistory');

const InboxNode = z.object({ id: z.string(), title: z.string(), updated_at: z.string() });
export const InboxAutoFiling = z.object({
  node_id: z.string(), title: z.string(), para_item_id: z.string(), para_label: z.string(),
  score: z.number().nullable(), method: z.string().nullable(),
});

export const Inbox = z
  .object({
    failed_captures: z.array(z.object({ id: z.string(), title: z.string(), url: z.string().nullable(), error: z.string().nullable(), updated_at: z.string() })),
    orphans: z.array(InboxNode),
    stale: z.array(InboxNode),
    auto_filings: z.array(InboxAutoFiling),
    counts: z.object({ failed_captures: z.number().int(), orphans: z.number().int(), stale: z.number().int(), auto_filings: z.number().int() }),
  })
  .openapi('Inbox');

export const InboxQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10).openapi({ description: 'Items listed per section (counts are complete)' }),
});
