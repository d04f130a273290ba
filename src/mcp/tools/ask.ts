// MCP `ask`: the passages of the notes that answer a question, numbered, with where each
// stands, so the agent writes its own answer and cites them; "the notes don't say" with the
// nearest notes when none does. The extractive answer over POST /ask (no model is asked).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../../client/client.js';
import type { AskResult } from '../../client/types.js';
import { guard, ok } from '../result.js';

export const AskArgs = {
  question: z.string().min(1).max(2000),
  tags: z.array(z.string().trim().min(1).max(100)).max(20).optional().describe('only notes carrying every one of these tags'),
  para_item_id: z.string().min(1).max(100).optional().describe('only notes filed in this PARA item (see list_para)'),
  after: z.string().max(40).optional().describe('YYYY-MM-DD or ISO date-time: only notes dated at or after this'),
  before: z.string().max(40).optional().describe('YYYY-MM-DD or ISO date-time: only notes dated before this'),
};

export async function askPassages(client: RhizomeClient, a: { question: string; tags?: string[]; para_item_id?: string; after?: string; before?: string }): Promise<AskResult> {
  const filters = {
    ...(a.tags?.length ? { tags: a.tags } : {}),
    ...(a.para_item_id ? { para_item_id: a.para_item_id } : {}),
    ...(a.after ? { occurred_after: a.after } : {}),
    ...(a.before ? { occurred_before: a.before } : {}),
  };
  return client.ask({ question: a.question, mode: 'extractive', ...(Object.keys(filters).length ? { filters } : {}) });
}

/** The cited passages as numbered text an agent can quote from. */
export function passagesText(r: AskResult): string {
  if (r.abstained) {
    const near = r.maybe_related.map((m) => `- ${m.title} [${m.node_id}]`).join('\n');
    return `Your notes don't say.${near ? `\nMaybe related (not an answer; read them with read_node if useful):\n${near}` : ''}`;
  }
  return r.citations.map((c, i) => `[${i + 1}] ${c.title} [${c.node_id}] (characters ${c.start}-${c.end} of its ${c.field})\n${c.passage.trim()}`).join('\n\n');
}

export function registerAskTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'ask',
    {
      title: 'Ask the notes',
      description:
        "The passages of the user's notes that answer a question, numbered, each with its node id and offsets: write the answer " +
        "yourself from them and cite them as [n]. When the notes do not answer, it says \"Your notes don't say.\" and lists the nearest notes, " +
        'which are not an answer. Filters: tags, a PARA item, a date range.',
      inputSchema: AskArgs,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const r = await askPassages(client, args);
        return ok(passagesText(r), { abstained: r.abstained, citations: r.citations, maybe_related: r.maybe_related });
      }),
  );
}
