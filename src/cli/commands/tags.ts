// tags list | rename | delete.
import type { Command } from 'commander';
import { client, print, printJson, table } from '../ui.js';

export function registerTagCommands(program: Command): void {
  const tags = program
    .command('tags')
    .description('tags across all nodes: list with counts, rename (merging into an existing tag), delete everywhere');

  tags
    .command('list', { isDefault: true })
    .description('every tag with how many nodes carry it, most used first')
    .option('--json', 'print the API response as JSON')
    .addHelpText('after', '\nExamples:\n  rhizome tags\n  rhizome tags list --json')
    .action(async (o: { json?: boolean }) => {
      const data = await client().tags();
      if (o.json) return printJson({ data });
      table(data.map((t) => ({ ...t })), ['name', 'count'], 'No tags yet.');
    });

  tags
    .command('rename <name> <new-name>')
    .description('rename a tag on every node; if NEW-NAME exists already the two merge')
    .option('--json', 'print the resulting tag as JSON')
    .addHelpText('after', '\nExamples:\n  rhizome tags rename ml machine-learning\n  rhizome tags rename "to read" reading-list')
    .action(async (name: string, to: string, o: { json?: boolean }) => {
      const t = await client().renameTag(name, to);
      if (o.json) return printJson(t);
      print(`Renamed "${name}" to "${t.name}" (${t.count} node(s)).`);
    });

  tags
    .command('delete <name>')
    .alias('rm')
    .description('remove a tag from every node (the nodes stay)')
    .option('--json', 'print {"deleted": NAME} as JSON')
    .addHelpText('after', '\nExamples:\n  rhizome tags delete obsolete')
    .action(async (name: string, o: { json?: boolean }) => {
      await client().deleteTag(name);
      if (o.json) return printJson({ deleted: name });
      print(`Removed tag "${name}" from every node.`);
    });
}
