// MCP tools over nodes, search, links and session context.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../client/client.js';
import { LINK_TYPES, NODE_STATUSES, SEARCH_MODES, type ContextNode } from '../client/types.js';
import { contextLine, guard, nodeLine, nodeText, ok } from './result.js';

const id = z.string().min(1).max(100);
const ids = z.array(id).max(50);
const tags = z.array(z.string().trim().min(1).max(100)).max(100);

export function registerNodeTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'search_nodes',
    {
      title: 'Search knowledge nodes',
      description:
        'Search the knowledge graph by keyword (BM25), semantic (embeddings) or hybrid (both fused, the default). ' +
        'Without a query, lists nodes newest first. Filters: PARA item, status, orphans only, tags (all must match). Returns ids to use with get_node. ' +
        'Scores are absolute (0.3 some words match, 0.5 about half the query, 0.8 all of it); each result shows where the words matched; ' +
        'an empty answer means no note matches (nothing is padded in).',
      inputSchema: {
        query: z.string().max(500).optional().describe('search text (max 500 characters)'),
        mode: z.enum(SEARCH_MODES).optional().describe('keyword, semantic or hybrid (default)'),
        para_item_id: id.optional().describe('only nodes under this PARA item'),
        status: z.enum(NODE_STATUSES).optional(),
        orphan: z.boolean().optional().describe('true: only nodes with no PARA item'),
        tags: z.array(z.string().trim().min(1).max(100)).max(20).optional().describe('only nodes carrying every one of these tags'),
        page: z.number().int().min(1).optional(),
        per_page: z.number().int().min(1).max(100).optional().describe('default 20, max 100'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const { tags: tag, ...rest } = args;
        const r = await client.search({ ...rest, tag });
        if (args.query && r.total === 0) return ok(`No notes match "${args.query}": none contains these words or is close enough in meaning.`, { ...r });
        const head = `${r.total} node(s)${args.query ? ` for "${args.query}"` : ''}, page ${r.page}${r.coverage_capped ? ' (recall capped: refine the query)' : ''}:`;
        return ok([head, ...r.data.map((n, i) => nodeLine(n, (r.page - 1) * r.per_page + i))].join('\n'), { ...r });
      }),
  );

  server.registerTool(
    'get_node',
    {
      title: 'Get a node',
      description: 'Fetch one knowledge node by id: title, summary, full markdown body, tags, PARA items, status.',
      inputSchema: { id },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id }) => guard(async () => {
      const n = await client.getNode(id);
      return ok(nodeText(n), { ...n });
    }),
  );

  server.registerTool(
    'create_node',
    {
      title: 'Create a node',
      description: 'Create a knowledge node. content is markdown. para_item_ids must be ids of existing PARA items (see para_tree).',
      inputSchema: {
        title: z.string().trim().min(1).max(500),
        content: z.string().max(500_000).optional().describe('markdown body'),
        summary: z.string().max(5000).optional(),
        tags: tags.optional(),
        status: z.enum(NODE_STATUSES).optional().describe('default raw'),
        para_item_ids: ids.optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => guard(async () => {
      const n = await client.createNode(args);
      return ok(`Created node "${n.title}" [${n.id}].`, { ...n });
    }),
  );

  server.registerTool(
    'update_node',
    {
      title: 'Update a node',
      description: 'Change a node: only the fields given are changed; content replaces the whole markdown body; tags and para_item_ids replace the whole list.',
      inputSchema: {
        id,
        title: z.string().trim().min(1).max(500).optional(),
        content: z.string().max(500_000).optional(),
        summary: z.string().max(5000).optional(),
        tags: tags.optional(),
        status: z.enum(NODE_STATUSES).optional(),
        para_item_ids: ids.optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ id, ...patch }) => guard(async () => {
      const n = await client.updateNode(id, patch);
      return ok(`Updated node "${n.title}" [${n.id}] (${Object.keys(patch).join(', ') || 'nothing changed'}).`, { ...n });
    }),
  );

  server.registerTool(
    'link_nodes',
    {
      title: 'Link two nodes',
      description:
        'Create a typed link from one node to another, keeping its other links. Links are bidirectional: the reverse link ' +
        '(with the inverse type, e.g. supports/supported_by) is created too. Linking the same pair again changes its type.',
      inputSchema: {
        source_id: id,
        target_id: id,
        type: z.enum(LINK_TYPES).optional().describe('default related'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ source_id, target_id, type }) => guard(async () => {
      const links = await client.addLinks(source_id, [{ target_id, type: type ?? 'related' }]);
      return ok(`Linked ${source_id} -[${type ?? 'related'}]-> ${target_id}. ${source_id} now has ${links.length} link(s).`, { node_id: source_id, links });
    }),
  );

  server.registerTool(
    'related_nodes',
    {
      title: 'Related nodes',
      description: "A node's 1-hop neighbours in the graph with the relationship type of each link.",
      inputSchema: { id, limit: z.number().int().min(1).max(500).optional().describe('default 50') },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id, limit }) => guard(async () => {
      const nodes = await client.related(id, limit);
      const text = nodes.length
        ? [`${nodes.length} neighbour(s) of ${id}:`, ...nodes.map((n) => `- [${n.relationship_type}] ${n.title} [${n.id}]`)].join('\n')
        : `${id} has no links yet.`;
      return ok(text, { nodes });
    }),
  );

  server.registerTool(
    'suggest_links',
    {
      title: 'Suggest links for a text',
      description: 'Existing nodes that a piece of text (a draft, a note, a node body) should probably link to, best first.',
      inputSchema: { text: z.string().trim().min(1).max(10_000) },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ text }) => guard(async () => {
      const suggestions = await client.suggestLinks(text);
      const body = suggestions.length
        ? suggestions.map((s, i) => `${i + 1}. ${s.title} [${s.node_id}] (score ${s.score.toFixed(3)})`).join('\n')
        : 'No link suggestions.';
      return ok(body, { suggestions });
    }),
  );

  server.registerTool(
    'get_context',
    {
      title: 'Get session context',
      description:
        'Ranked nodes relevant to the current session: give a query and/or focus node ids (their neighbours are drawn in). ' +
        'Each result carries the passages that matched (their text, with offsets), its dates, and why it was chosen. ' +
        'Dates in the query ("in March 2023", "last May") or occurred_after/occurred_before put that period first.',
      inputSchema: {
        query: z.string().max(2000).optional(),
        focus_node_ids: z.array(id).max(100).optional(),
        mode: z.enum(SEARCH_MODES).optional(),
        limit: z.number().int().min(1).max(100).optional().describe('default 20'),
        occurred_after: z.string().max(40).optional().describe('YYYY-MM-DD or ISO date-time: nodes dated at or after this first'),
        occurred_before: z.string().max(40).optional().describe('YYYY-MM-DD or ISO date-time: nodes dated before this first'),
        tags: z.array(z.string().trim().min(1).max(100)).max(20).optional().describe('only nodes carrying every one of these tags'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) => guard(async () => {
      const nodes = await client.context(args);
      const text = nodes.length ? nodes.map((n, i) => contextLine(n, i)).join('\n') : 'No context nodes found.';
      return ok(text, { nodes });
    }),
  );
}
