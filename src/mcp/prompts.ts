// Prompts: a weekly review over recent activity, and "summarise this project" over the
// nodes of one PARA item (named by id, slug or label).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../client/client.js';
import type { ParaItem } from '../client/types.js';
import { activityText, recentActivity } from './activity.js';
import { excerpt } from './markdown.js';
import { askPassages, passagesText } from './tools/ask.js';

const user = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });

/** A PARA item by id, slug or label (case-insensitive). */
export async function findParaItem(client: RhizomeClient, ref: string): Promise<ParaItem> {
  const want = ref.trim().toLowerCase();
  const items = await client.paraList();
  const hit = items.find((p) => p.id === ref.trim()) ?? items.find((p) => p.slug === want) ?? items.find((p) => p.label.toLowerCase() === want);
  if (!hit) throw new Error(`no PARA item with id, slug or label "${ref}"`);
  return hit;
}

export function registerPrompts(server: McpServer, client: RhizomeClient): void {
  server.registerPrompt(
    'weekly_review',
    {
      title: 'Weekly review',
      description: 'Review what was added and changed recently: themes, loose ends, nodes to link, file or validate.',
      argsSchema: { days: z.string().regex(/^\d{1,3}$/).optional().describe('how many days back (default 7)') },
    },
    async ({ days }) => {
      const n = days ? Number(days) : 7;
      const activity = await recentActivity(client, new Date(Date.now() - n * 86_400_000));
      return user(
        `Here is my knowledge graph's activity over the last ${n} day(s).\n\n${activityText(activity)}\n\n` +
          'Give me a weekly review: the main themes, what is unfinished or failed, nodes that should be linked ' +
          '(use related_nodes and suggest_links), nodes without a PARA item to file (list_para, assign_para), and ' +
          'three concrete next actions. Read nodes with read_node where the titles are not enough.',
      );
    },
  );

  server.registerPrompt(
    'summarise_project',
    {
      title: 'Summarise a project',
      description: 'Summarise the nodes filed under one PARA item (project, area or resource), named by id, slug or label.',
      argsSchema: { project: z.string().min(1).max(200).describe('PARA item id, slug or label') },
    },
    async ({ project }) => {
      const item = await findParaItem(client, project);
      const r = await client.search({ para_item_id: item.id, per_page: 100 });
      const list = r.data.map((n) => `- ${n.title} [${n.id}]: ${excerpt(n, 400)}`).join('\n') || '(no nodes yet)';
      return user(
        `Summarise my ${item.category.replace(/s$/, '')} "${item.label}"${item.description ? ` (${item.description})` : ''}. ` +
          `It has ${r.total} node(s)${r.total > r.data.length ? `; the newest ${r.data.length} are listed` : ''}:\n\n${list}\n\n` +
          'Say what it is about, where it stands, the open questions and the next steps. Cite nodes by title; read the ' +
          'full text of the important ones with read_node.',
      );
    },
  );

  server.registerPrompt(
    'answer-from-notes',
    {
      title: 'Answer from my notes',
      description: 'Answer a question from the passages of your notes that say it, citing each as [n]; "Your notes don\'t say" when none does.',
      argsSchema: { question: z.string().min(1).max(2000).describe('the question') },
    },
    async ({ question }) => {
      const r = await askPassages(client, { question });
      if (r.abstained) return user(`My question: ${question}\n\nSearching my notes found nothing that answers it.\n${passagesText(r)}\n\nTell me my notes don't say; do not answer from general knowledge. You may mention the related notes as something to read.`);
      return user(
        `Answer my question using only these numbered passages from my notes. After every sentence cite the passage(s) it comes from as [n]; ` +
          `never cite a number not listed, and if the passages do not answer it, say that my notes don't say.\n\n${passagesText(r)}\n\nQuestion: ${question}`,
      );
    },
  );
}
