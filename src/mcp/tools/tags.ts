// MCP tools over tags.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RhizomeClient } from '../../client/client.js';
import { guard, ok } from '../result.js';

export function registerTagTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'list_tags',
    {
      title: 'List tags',
      description: 'Every tag in the knowledge graph with how many nodes carry it, most used first (filter nodes with search_nodes tags).',
      inputSchema: {},
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => guard(async () => {
      const data = await client.tags();
      return ok(data.length ? data.map((t) => `- ${t.name} (${t.count})`).join('\n') : 'No tags yet.', { data });
    }),
  );
}
