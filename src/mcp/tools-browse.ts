// MCP tools that browse: recent activity, a capture's content, PARA items, tags.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../client/client.js';
import { PARA_CATEGORIES } from '../client/types.js';
import { activityText, periodStart, recentActivity } from './activity.js';
import { guard, ok } from './result.js';

const id = z.string().min(1).max(100);
const MAX_TEXT = 200_000;
const TEXTUAL = /^(text\/|application\/(json|xml|xhtml\+xml|javascript|x-ndjson)|.*\+json|.*\+xml)/;

export function registerBrowseTools(server: McpServer, client: RhizomeClient): void {
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

  server.registerTool(
    'read_capture_content',
    {
      title: "Read a capture's content",
      description:
        'The content of a capture: format markdown (default) is the processed text the node was made from; raw is what was ' +
        'captured (text types only: binary files such as PDFs or images are described, not returned).',
      inputSchema: { id, format: z.enum(['markdown', 'raw']).optional() },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id, format }) => guard(async () => {
      const fmt = format ?? 'markdown';
      const r = await client.captureContent(id, fmt === 'markdown' ? 'markdown' : undefined);
      if (!TEXTUAL.test(r.contentType)) {
        return ok(`Capture ${id} holds ${r.body.length} bytes of ${r.contentType}; ask for format markdown to read its text.`, { id, content_type: r.contentType, bytes: r.body.length });
      }
      const text = new TextDecoder().decode(r.body);
      const cut = text.length > MAX_TEXT;
      return ok(cut ? `${text.slice(0, MAX_TEXT)}\n\n[…cut at ${MAX_TEXT} of ${text.length} characters]` : text, { id, content_type: r.contentType, characters: text.length, truncated: cut });
    }),
  );

  server.registerTool(
    'list_para',
    {
      title: 'List PARA items',
      description: 'PARA items (projects, areas, resources, archives) with id, slug, label, status; filter by category and status.',
      inputSchema: {
        category: z.enum(PARA_CATEGORIES).optional(),
        status: z.enum(['active', 'completed', 'archived']).optional(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (q) => guard(async () => {
      const items = await client.paraList(q);
      const text = items.length ? items.map((p) => `- [${p.category}] ${p.label} (${p.status}) [${p.id}] slug ${p.slug}`).join('\n') : 'No PARA items.';
      return ok(text, { data: items });
    }),
  );

  server.registerTool(
    'create_para_item',
    {
      title: 'Create a PARA item',
      description: 'Create a project, area or resource (archives are made by archiving). Returns its id for assign_para and create_node.',
      inputSchema: {
        category: z.enum(PARA_CATEGORIES),
        label: z.string().trim().min(1).max(200),
        description: z.string().max(5000).optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (a) => guard(async () => {
      const p = await client.paraCreate(a);
      return ok(`Created ${p.category} "${p.label}" [${p.id}].`, { ...p });
    }),
  );

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
