// MCP tools that find nodes: search by words and meaning, or list with filters.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../../client/client.js';
import { NODE_STATUSES, SEARCH_MODES } from '../../client/types.js';
import { guard, nodeLine, ok } from '../result.js';
import { id } from './args.js';

export function registerSearchTools(server: McpServer, client: RhizomeClient): void {
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
}
