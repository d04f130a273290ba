// MCP tools over session context: the nodes relevant to what the agent is working on.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../../client/client.js';
import { SEARCH_MODES, type ContextNode } from '../../client/types.js';
import { excerpt } from '../markdown.js';
import { guard, ok } from '../result.js';
import { id } from './args.js';

/** Context nodes with an excerpt: the summary, or the start of the body where it is empty. */
async function withExcerpts(client: RhizomeClient, nodes: ContextNode[]): Promise<Array<ContextNode & { excerpt: string }>> {
  return Promise.all(
    nodes.map(async (n) => ({ ...n, excerpt: n.summary ? excerpt(n) : excerpt(await client.getNode(n.id).catch(() => ({ body_markdown: '' }))) })),
  );
}

export function registerContextTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'get_context',
    {
      title: 'Get session context',
      description:
        'Ranked nodes relevant to the current session: give a query and/or focus node ids (their neighbours are drawn in). ' +
        'Each result says why it was chosen.',
      inputSchema: {
        query: z.string().max(2000).optional(),
        focus_node_ids: z.array(id).max(100).optional(),
        mode: z.enum(SEARCH_MODES).optional(),
        limit: z.number().int().min(1).max(100).optional().describe('default 20'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) => guard(async () => {
      const nodes = await withExcerpts(client, await client.context(args));
      const text = nodes.length
        ? nodes.map((n, i) => `${i + 1}. ${n.title} [${n.id}] (score ${n.score.toFixed(3)}; ${n.reasons.join(', ')})${n.excerpt ? `\n   ${n.excerpt}` : ''}`).join('\n')
        : 'No context nodes found.';
      return ok(text, { nodes });
    }),
  );
}
