// MCP tools over one node: fetch it by id, read it by id or title, create, change, edit part of, delete.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../../client/client.js';
import { NODE_STATUSES, type Node } from '../../client/types.js';
import { applyEdit, type EditOp } from '../edit-ops.js';
import { nodeMarkdown } from '../markdown.js';
import { guard, nodeText, ok } from '../result.js';
import { id, ids, tags } from './args.js';

/** A node by exact title (case-insensitive) or, failing that, the closest match. */
export async function findByTitle(client: RhizomeClient, title: string, fuzzy: boolean): Promise<{ node: Node; exact: boolean } | null> {
  const want = title.trim().toLowerCase();
  const keyword = await client.search({ query: title, mode: 'keyword', per_page: 50 });
  const exact = keyword.data.find((n) => n.title.trim().toLowerCase() === want);
  if (exact) return { node: exact, exact: true };
  if (!fuzzy) return null;
  const best = (await client.search({ query: title, mode: 'hybrid', per_page: 1 })).data[0] ?? keyword.data[0];
  return best ? { node: best, exact: false } : null;
}

export function registerNodeTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'get_node',
    {
      title: 'Get a node',
      description: 'Fetch one knowledge node by id: title, summary, full markdown body, tags, PARA items, status.',
      inputSchema: { id },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id }) => guard(async () => {
      const n = await client.getNode(id);
      return ok(nodeText(n), { ...n });
    }),
  );

  server.registerTool(
    'read_node',
    {
      title: 'Read a node by id or title',
      description:
        'Read one node as Markdown with front matter (id, title, tags, status, PARA items, dates). Give its id, or a title: ' +
        'an exact title (case-insensitive) wins; with fuzzy (default true) the closest match is returned otherwise, and the answer says so.',
      inputSchema: {
        id: id.optional(),
        title: z.string().trim().min(1).max(500).optional(),
        fuzzy: z.boolean().optional().describe('default true: fall back to the closest title'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (a) => guard(async () => {
      if ((a.id === undefined) === (a.title === undefined)) throw new Error('give exactly one of id or title');
      let node: Node;
      let note = '';
      if (a.id) node = await client.getNode(a.id);
      else {
        const found = await findByTitle(client, a.title!, a.fuzzy ?? true);
        if (!found) throw new Error(`no node titled "${a.title}"`);
        node = await client.getNode(found.node.id);
        if (!found.exact) note = `(no node is titled exactly "${a.title}"; this is the closest match)\n\n`;
      }
      return ok(note + nodeMarkdown(node), { ...node, exact_match: note === '' });
    }),
  );

  server.registerTool(
    'create_node',
    {
      title: 'Create a node',
      description: 'Create a knowledge node. content is markdown. para_item_ids must be ids of existing PARA items (see para_tree).',
      inputSchema: {
        title: z.string().trim().min(1).max(500),
        content: z.string().max(500_000).optional().describe('markdown body'),
        summary: z.string().max(5000).optional(),
        tags: tags.optional(),
        status: z.enum(NODE_STATUSES).optional().describe('default raw'),
        para_item_ids: ids.optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => guard(async () => {
      const n = await client.createNode(args);
      return ok(`Created node "${n.title}" [${n.id}].`, { ...n });
    }),
  );

  server.registerTool(
    'update_node',
    {
      title: 'Update a node',
      description: 'Change a node: only the fields given are changed; content replaces the whole markdown body; tags and para_item_ids replace the whole list.',
      inputSchema: {
        id,
        title: z.string().trim().min(1).max(500).optional(),
        content: z.string().max(500_000).optional(),
        summary: z.string().max(5000).optional(),
        tags: tags.optional(),
        status: z.enum(NODE_STATUSES).optional(),
        para_item_ids: ids.optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ id, ...patch }) => guard(async () => {
      const n = await client.updateNode(id, patch);
      return ok(`Updated node "${n.title}" [${n.id}] (${Object.keys(patch).join(', ') || 'nothing changed'}).`, { ...n });
    }),
  );

  server.registerTool(
    'edit_node',
    {
      title: 'Edit part of a node',
      description:
        "Edit a node's markdown body without resending it: append or prepend text, find_replace (the text must occur " +
        'expected_count times, default 1, or nothing changes), or replace_section (the content under a heading, up to the next ' +
        'heading of the same or a higher level). Title, tags and the rest are left as they are.',
      inputSchema: {
        id,
        operation: z.enum(['append', 'prepend', 'find_replace', 'replace_section']),
        content: z.string().max(500_000).describe('the text to add, the replacement, or the new section body'),
        find: z.string().min(1).max(10_000).optional().describe('find_replace: the exact text to replace'),
        expected_count: z.number().int().min(1).max(10_000).optional().describe('find_replace: how many occurrences there must be (default 1)'),
        heading: z.string().min(1).max(500).optional().describe('replace_section: the heading text (with or without #)'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (a) => guard(async () => {
      if (a.operation === 'find_replace' && a.find === undefined) throw new Error('find_replace needs find');
      if (a.operation === 'replace_section' && a.heading === undefined) throw new Error('replace_section needs heading');
      const node = await client.getNode(a.id);
      const body = applyEdit(node.body_markdown, a as EditOp);
      const updated = body === node.body_markdown ? node : await client.updateNode(a.id, { content: body });
      return ok(`Edited "${updated.title}" [${updated.id}] (${a.operation}); the body is now ${updated.body_markdown.length} characters.`, { ...updated });
    }),
  );

  server.registerTool(
    'delete_node',
    {
      title: 'Delete a node',
      description: 'Delete a node for good, with its links (both directions), PARA associations and embedding. Cannot be undone.',
      inputSchema: { id },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ id }) => guard(async () => {
      await client.deleteNode(id);
      return ok(`Deleted node ${id}.`, { deleted: id });
    }),
  );
}
