// MCP tools over links between nodes: link, unlink, neighbours, suggestions.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../../client/client.js';
import { LINK_TYPES } from '../../client/types.js';
import { guard, ok } from '../result.js';
import { id } from './args.js';

export function registerLinkTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'link_nodes',
    {
      title: 'Link two nodes',
      description:
        'Create a typed link from one node to another, keeping its other links. Links are bidirectional: the reverse link ' +
        '(with the inverse type, e.g. supports/supported_by) is created too. Linking the same pair again changes its type.',
      inputSchema: {
        source_id: id,
        target_id: id,
        type: z.enum(LINK_TYPES).optional().describe('default related'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ source_id, target_id, type }) => guard(async () => {
      const links = await client.addLinks(source_id, [{ target_id, type: type ?? 'related' }]);
      return ok(`Linked ${source_id} -[${type ?? 'related'}]-> ${target_id}. ${source_id} now has ${links.length} link(s).`, { node_id: source_id, links });
    }),
  );

  server.registerTool(
    'unlink_nodes',
    {
      title: 'Remove a link',
      description: 'Remove the link between two nodes (both directions), keeping their other links.',
      inputSchema: { source_id: id, target_id: id },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ source_id, target_id }) => guard(async () => {
      const before = await client.links(source_id);
      const links = await client.removeLinks(source_id, [target_id]);
      const removed = before.length !== links.length;
      return ok(removed ? `Unlinked ${source_id} and ${target_id}; ${links.length} link(s) left.` : `${source_id} was not linked to ${target_id}; nothing changed.`, { node_id: source_id, removed, links });
    }),
  );

  server.registerTool(
    'related_nodes',
    {
      title: 'Related nodes',
      description: "A node's 1-hop neighbours in the graph with the relationship type of each link.",
      inputSchema: { id, limit: z.number().int().min(1).max(500).optional().describe('default 50') },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id, limit }) => guard(async () => {
      const nodes = await client.related(id, limit);
      const text = nodes.length
        ? [`${nodes.length} neighbour(s) of ${id}:`, ...nodes.map((n) => `- [${n.relationship_type}] ${n.title} [${n.id}]`)].join('\n')
        : `${id} has no links yet.`;
      return ok(text, { nodes });
    }),
  );

  server.registerTool(
    'suggest_links',
    {
      title: 'Suggest links for a text',
      description: 'Existing nodes that a piece of text (a draft, a note, a node body) should probably link to, best first.',
      inputSchema: { text: z.string().trim().min(1).max(10_000) },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ text }) => guard(async () => {
      const suggestions = await client.suggestLinks(text);
      const body = suggestions.length
        ? suggestions.map((s, i) => `${i + 1}. ${s.title} [${s.node_id}] (score ${s.score.toFixed(3)})`).join('\n')
        : 'No link suggestions.';
      return ok(body, { suggestions });
    }),
  );
}
