// para tree/list/show/add/edit/archive/unarchive/complete/undo-complete/match/rescan.
import type { Command } from 'commander';
import { PARA_CATEGORIES, type ParaCategory, type ParaItem } from '../../client/types.js';
import { CliError, EXIT } from '../exit-codes.js';
import { resolvePara } from '../para-ref.js';
import { choice, client, details, print, printJson, table } from '../ui.js';

const showItem = (i: ParaItem) =>
  details([['id', i.id], ['category', i.category], ['label', i.label], ['slug', i.slug], ['status', i.status], ['description', i.description], ['nodes', i.node_count]]);

export function registerParaCommands(program: Command): void {
  const para = program.command('para').description('PARA items: projects, areas, resources');

  para
    .command('tree')
    .description('every active PARA item by category, with node counts')
    .option('--all', 'include archived items')
    .option('--json', 'print JSON')
    .action(async (o: { all?: boolean; json?: boolean }) => {
      const tree = await client().paraTree(o.all);
      if (o.json) return printJson(tree);
      for (const cat of PARA_CATEGORIES) {
        const items = tree[cat] ?? [];
        print(`${cat[0].toUpperCase()}${cat.slice(1)} (${items.length})`);
        for (const i of items) print(`  ${i.label}  [${i.id}]  ${i.node_count ?? 0} node(s)${i.status !== 'active' ? `  (${i.status})` : ''}`);
      }
    });

  para
    .command('list')
    .description('list PARA items')
    .option('--category <c>', PARA_CATEGORIES.join(', '), choice('--category', PARA_CATEGORIES))
    .option('--status <s>', 'active, archived, completed')
    .option('--json', 'print JSON')
    .action(async (o: { category?: ParaCategory; status?: string; json?: boolean }) => {
      const items = await client().paraList({ category: o.category, status: o.status });
      if (o.json) return printJson({ data: items });
      table(items, ['id', 'category', 'label', 'status', 'slug'], 'No PARA items.');
    });

  para
    .command('show <item>')
    .description('one PARA item')
    .option('--json', 'print JSON')
    .action(async (ref: string, o: { json?: boolean }) => {
        const id = await resolvePara(client(), ref);
      const item = await client().paraGet(id);
      if (o.json) return printJson(item);
      showItem(item);
    });

  para
    .command('add <category> <label>')
    .description('create a project, area or resource (orphan nodes are then reclassified in the background)')
    .option('-d, --description <text>', 'what belongs here (helps automatic classification)')
    .option('--json', 'print the created item as JSON')
    .action(async (category: string, label: string, o: { description?: string; json?: boolean }) => {
      const cat = choice('category', PARA_CATEGORIES)(category.endsWith('s') ? category : `${category}s`);
      const item = await client().paraCreate({ category: cat, label, description: o.description });
      if (o.json) return printJson(item);
      print(`Created ${item.category.replace(/s$/, '')} "${item.label}" (${item.id}, slug ${item.slug}).`);
    });

  para
    .command('edit <item>')
    .description('change label, description or status')
    .option('--label <label>')
    .option('-d, --description <text>')
    .option('--status <status>', 'active, archived, completed')
    .option('--json', 'print the updated item as JSON')
    .action(async (ref: string, o: { label?: string; description?: string; status?: string; json?: boolean }) => {
        const id = await resolvePara(client(), ref);
      const patch = Object.fromEntries(Object.entries({ label: o.label, description: o.description, status: o.status }).filter(([, v]) => v !== undefined));
      if (!Object.keys(patch).length) throw new CliError('nothing to change: give --label, --description or --status', EXIT.usage);
      const item = await client().paraUpdate(id, patch);
      if (o.json) return printJson(item);
      print(`Updated ${item.id}: ${Object.keys(patch).join(', ')}`);
    });

  const lifecycle = [
    ['archive', 'archive an item (its node associations are hidden; idempotent)', 'Archived'],
    ['unarchive', 'restore an archived item and its node associations (idempotent)', 'Unarchived'],
    ['complete', 'mark a project completed', 'Completed'],
    ['undo-complete', 'return a completed project to active', 'Reopened'],
  ] as const;
  for (const [action, description, done] of lifecycle) {
    para
      .command(`${action} <item>`)
      .description(description)
      .option('--json', 'print the item as JSON')
      .action(async (ref: string, o: { json?: boolean }) => {
        const id = await resolvePara(client(), ref);
        const item = await client().paraAction(id, action);
        if (o.json) return printJson(item);
        print(`${done} ${id}${item && 'status' in item ? ` (status ${String(item.status)})` : ''}.`);
      });
  }

  para
    .command('match <item>')
    .description('find and assign orphan nodes that fit this item (in the background)')
    .option('--json', 'print JSON')
    .action(async (ref: string, o: { json?: boolean }) => {
        const id = await resolvePara(client(), ref);
      const r = await client().paraAction(id, 'match');
      if (o.json) return printJson(r ?? {});
      print(`Matching orphans to ${id} in the background${r && 'queued' in r ? ` (${String(r.queued)} queued)` : ''}.`);
    });

  para
    .command('rescan')
    .description('re-classify every orphan node against the current PARA items (once per 5 minutes)')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const r = await client().paraRescan();
      if (o.json) return printJson(r);
      print(`Queued ${r.queued} orphan node(s) for classification.`);
    });
}
