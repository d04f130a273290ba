// MCP tools over session context: the nodes relevant to what the agent is working on, each
// with the passages that matched and its dates.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../../client/client.js';
import { SEARCH_MODES } from '../../client/types.js';
import { contextLine, guard, ok } from '../result.js';
import { id } from './args.js';

export function registerContextTools(server: McpServer, client: RhizomeClient): void {
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
    (args) =>
      guard(async () => {
        const nodes = await client.context(args);
        const text = nodes.length ? nodes.map((n, i) => contextLine(n, i)).join('\n') : 'No context nodes found.';
        return ok(text, { nodes });
      }),
  );
}
