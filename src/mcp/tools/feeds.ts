// MCP tools over feeds: list the subscriptions, subscribe to one.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../../client/client.js';
import { guard, ok } from '../result.js';

export function registerFeedsTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'list_feeds',
    {
      title: 'List feeds',
      description: 'The RSS/Atom/JSON feeds this graph follows: id, title, URL, status (active, paused, failing), items seen, last poll and last error.',
      inputSchema: {},
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => guard(async () => {
      const feeds = await client.feeds();
      const text = feeds.length
        ? feeds.map((f) => `- ${f.title} [${f.id}] ${f.status}, ${f.items_seen} item(s), last polled ${f.last_polled_at ?? 'never'}${f.last_error ? `; error: ${f.last_error}` : ''}\n  ${f.url}`).join('\n')
        : 'No feeds yet.';
      return ok(text, { data: feeds });
    }),
  );

  server.registerTool(
    'subscribe_feed',
    {
      title: 'Subscribe to a feed',
      description:
        "Follow a feed by its URL or a web page's URL (the page's feed is found from its <link rel=\"alternate\">). Every new item " +
        'becomes a capture, tagged with the feed (and the given tags), polled every interval_minutes (default 60).',
      inputSchema: {
        url: z.string().url().max(2000),
        tags: z.array(z.string().min(1).max(100)).max(20).optional(),
        para_item_id: z.string().min(1).max(100).optional().describe('PARA item every item is filed in'),
        interval_minutes: z.number().int().min(5).max(10080).optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (a) => guard(async () => {
      const f = await client.subscribeFeed(a);
      return ok(`Subscribed to "${f.title}" [${f.id}] at ${f.url}; polling every ${f.interval_minutes} min.`, { ...f });
    }),
  );
}
