// MCP tools over PARA: the tree, the items, and filing a node.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../../client/client.js';
import { PARA_CATEGORIES } from '../../client/types.js';
import { guard, ok } from '../result.js';
import { id } from './args.js';

export function registerParaTools(server: McpServer, client: RhizomeClient): void {
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
}
