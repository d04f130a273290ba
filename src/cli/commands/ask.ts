// `rhizome ask "…"`: an answer from your notes, its citations as footnotes.
import type { Command } from 'commander';
import type { AskResult } from '../../client/types.js';
import { resolvePara } from '../para-ref.js';
import { client, collect, print, printJson } from '../ui.js';

const FOOTNOTE_CHARS = 240;

export function registerAskCommands(program: Command): void {
  program
    .command('ask <question...>')
    .description('answer a question from your notes, each sentence with a footnote to the passage it came from')
    .option('-t, --tag <tag>', 'only notes carrying this tag (repeat, or comma-separated: all must match)', collect)
    .option('-p, --para <item>', 'only notes filed in this PARA item (id, slug or label)')
    .option('--after <date>', 'only notes dated at or after this (YYYY-MM-DD)')
    .option('--before <date>', 'only notes dated before this (YYYY-MM-DD)')
    .option('--extractive', 'quote the notes only, even when a model is configured')
    .option('--json', 'print the answer, citations and mode as JSON')
    .addHelpText('after', '\nExamples:\n  rhizome ask what pressure should the boiler read\n  rhizome ask "when is the dentist?" --tag health --after 2026-01-01\n  rhizome ask what did we decide --para "Kitchen renovation" --json')
    .action(async (words: string[], o: { tag?: string[]; para?: string; after?: string; before?: string; extractive?: boolean; json?: boolean }) => {
      const c = client();
      const filters = {
        ...(o.tag?.length ? { tags: o.tag } : {}),
        ...(o.para ? { para_item_id: await resolvePara(c, o.para) } : {}),
        ...(o.after ? { occurred_after: o.after } : {}),
        ...(o.before ? { occurred_before: o.before } : {}),
      };
      const r = await c.ask({ question: words.join(' '), ...(Object.keys(filters).length ? { filters } : {}), ...(o.extractive ? { mode: 'extractive' as const } : {}) });
      if (o.json) return printJson(r);
      printAnswer(r);
    });
}

export function printAnswer(r: AskResult): void {
  print(r.answer);
  if (r.notice) print(`\n(${r.notice})`);
  if (r.citations.length) {
    print('');
    for (const [i, c] of r.citations.entries()) {
      const text = c.passage.replace(/\s+/g, ' ').trim();
      print(`[${i + 1}] ${c.title} [${c.node_id}]: "${text.length > FOOTNOTE_CHARS ? `${text.slice(0, FOOTNOTE_CHARS - 1)}…` : text}"`);
    }
  }
  if (r.abstained && r.maybe_related.length) {
    print('\nMaybe related:');
    for (const m of r.maybe_related) print(`  - ${m.title} [${m.node_id}]`);
  }
}
