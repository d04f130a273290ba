// MCP tools over captures, PARA and graph statistics.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guessUrlContentType, NOTE_TEXT_FIELD, noteTitle } from '../client/capture-kind.js';
import type { RhizomeClient } from '../client/client.js';
import { CONTENT_TYPES, PARA_CATEGORIES, type CaptureInput } from '../client/types.js';
import { guard, ok } from './result.js';

const id = z.string().min(1).max(100);

export function registerWorkTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'capture',
    {
      title: 'Capture a URL or a note',
      description:
        'Queue a web page (url) or a note (note text) for background processing into a knowledge node: fetch, extract, ' +
        'summarise, tag, embed, classify into PARA, link. Give exactly one of url or note. Returns the capture id; ' +
        'follow it with capture_status.',
      inputSchema: {
        url: z.string().url().max(2000).optional(),
        note: z.string().min(1).max(500_000).optional().describe('note text (markdown)'),
        title: z.string().trim().min(1).max(500).optional().describe('default: the URL, or the first line of the note'),
        why: z.string().max(2000).optional().describe('why this is worth keeping'),
        selected_text: z.string().max(100_000).optional().describe('a highlighted passage of the page'),
        content_type: z.enum(CONTENT_TYPES).optional().describe('default: guessed from the URL, note for notes'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (a) => guard(async () => {
      if ((a.url === undefined) === (a.note === undefined)) throw new Error('give exactly one of url or note');
      const input: CaptureInput = a.url
        ? { title: a.title ?? a.url, url: a.url, content_type: a.content_type ?? guessUrlContentType(a.url), source: 'mcp' }
        : { title: a.title ?? noteTitle(a.note!), content_type: a.content_type ?? 'note', source: 'mcp', [NOTE_TEXT_FIELD]: a.note };
      if (a.why) input.why = a.why;
      if (a.selected_text) input.selected_text = a.selected_text;
      const c = await client.capture(input);
      return ok(`Captured "${input.title}" as ${c.id} (status ${c.status}); processing runs in the background.`, { ...c });
    }),
  );

  server.registerTool(
    'capture_status',
    {
      title: 'Capture status',
      description: 'Processing status of a capture (pending, processing, completed, failed, archived, dismissed), the node it produced, any error, and its activity timeline.',
      inputSchema: { id },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id }) => guard(async () => {
      const [c, activity] = await Promise.all([client.getCapture(id), client.captureActivity(id).catch(() => [])]);
      const lines = [
        `Capture ${c.id}: ${c.status}${c.title ? ` — ${c.title}` : ''}`,
        c.node_id ? `node: ${c.node_id}` : '',
        c.error ? `error: ${c.error}` : '',
        ...activity.map((e) => `  ${e.at} ${e.kind}`),
      ];
      return ok(lines.filter(Boolean).join('\n'), { ...c, activity });
    }),
  );

  server.registerTool(
    'para_tree',
    {
      title: 'PARA tree',
      description: 'All PARA items (projects, areas, resources) with their ids, status and node counts. Use the ids with assign_para or search_nodes.',
      inputSchema: {},
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => guard(async () => {
      const tree = await client.paraTree();
      const text = PARA_CATEGORIES.map((cat) => {
        const items = tree[cat] ?? [];
        return `${cat}:${items.length ? '' : ' (none)'}\n${items.map((i) => `  - ${i.label} [${i.id}] ${i.status}${i.node_count !== undefined ? `, ${i.node_count} node(s)` : ''}`).join('\n')}`;
      }).join('\n');
      return ok(text, { ...tree });
    }),
  );

  server.registerTool(
    'assign_para',
    {
      title: 'Assign a node to PARA items',
      description: "Change which PARA items a node belongs to: add and/or remove item ids, or set the whole list (set: [] makes it an orphan).",
      inputSchema: {
        node_id: id,
        add: z.array(id).max(50).optional(),
        remove: z.array(id).max(50).optional(),
        set: z.array(id).max(50).optional().describe('replaces the whole list; not combined with add/remove'),
      },
      // set and remove drop associations: destructive.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ node_id, add, remove, set }) => guard(async () => {
      if (set && (add || remove)) throw new Error('give either set, or add/remove, not both');
      if (!set && !add && !remove) throw new Error('give set, add or remove');
      let ids = set;
      if (!ids) {
        const node = await client.getNode(node_id);
        const drop = new Set(remove ?? []);
        ids = [...new Set([...node.para_item_ids, ...(add ?? [])])].filter((x) => !drop.has(x));
      }
      const n = await client.updateNode(node_id, { para_item_ids: ids });
      return ok(`Node "${n.title}" [${n.id}] is now in: ${n.para_item_ids.join(', ') || '(no PARA item: orphan)'}.`, { ...n });
    }),
  );

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
