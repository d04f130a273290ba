// MCP tools over highlights: the passages a reader marked on a node, with their notes.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../../client/client.js';
import { guard, ok } from '../result.js';

const id = z.string().min(1).max(100);
const COLORS = ['yellow', 'green', 'blue', 'pink', 'purple'] as const;

export function registerHighlightTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'list_highlights',
    {
      title: "A node's highlights",
      description: 'The passages highlighted on a node, oldest first, each with its note and colour; "orphaned" ones are no longer in the node\'s text.',
      inputSchema: { node_id: id },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ node_id }) => guard(async () => {
      const list = await client.highlights(node_id);
      const lines = list.map((h) => `> ${h.text.replace(/\n/g, '\n> ')}${h.note ? `\n  note: ${h.note}` : ''}${h.orphaned ? '\n  (no longer in the text)' : ''}`);
      return ok(list.length ? lines.join('\n\n') : 'No highlights on this node.', { highlights: list });
    }),
  );

  server.registerTool(
    'highlight',
    {
      title: 'Highlight a passage',
      description: "Highlight words of a node's text (quote them exactly), optionally with a note; anchored so it survives edits elsewhere in the text.",
      inputSchema: {
        node_id: id,
        text: z.string().trim().min(1).max(10_000).describe('the exact words from the node'),
        note: z.string().max(10_000).optional(),
        color: z.enum(COLORS).optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (a) => guard(async () => {
      const h = await client.addHighlight(a.node_id, { text: a.text, ...(a.note ? { note: a.note } : {}), ...(a.color ? { color: a.color } : {}) });
      return ok(`Highlighted ${h.id} on ${a.node_id}${h.orphaned ? ' (these words are not in the node\'s text: kept, but not anchored)' : ''}.`, { ...h });
    }),
  );
}
