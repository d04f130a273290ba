// MCP tools over the graph as a whole: its health.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RhizomeClient } from '../../client/client.js';
import { guard, ok } from '../result.js';

export function registerGraphTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'graph_health',
    {
      title: 'Graph health',
      description: 'Counts of nodes, validated nodes, captures, pending captures, links and stale nodes (not validated, untouched for 90 days).',
      inputSchema: {},
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => guard(async () => {
      const h = await client.graphHealth();
      return ok(Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\n'), { ...h });
    }),
  );
}
