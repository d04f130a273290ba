// MCP tools over recent activity: what was created or changed in a period.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../../client/client.js';
import { activityText, periodStart, recentActivity } from '../activity.js';
import { guard, ok } from '../result.js';

export function registerActivityTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'recent_activity',
    {
      title: 'Recent activity',
      description: 'Nodes and captures created or changed in a period (the last `days` days, default 7, or since an ISO 8601 time), newest first.',
      inputSchema: {
        days: z.number().min(0.01).max(3650).optional().describe('default 7'),
        since: z.string().datetime({ offset: true }).optional().describe('ISO 8601; overrides days'),
        limit: z.number().int().min(1).max(200).optional().describe('at most this many of each (default 50)'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (a) => guard(async () => {
      const activity = await recentActivity(client, periodStart(Date.now(), a), a.limit);
      return ok(activityText(activity), { ...activity });
    }),
  );
}
