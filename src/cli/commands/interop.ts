// `rhizome import markdown|bookmarks` and `rhizome export markdown|json`: the client side
// of import runs (upload, then follow the run with a progress bar and print its counts)
// and of exports (download, then write the vault's files).
import type { Command } from 'commander';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { RhizomeClient } from '../../client/client.js';
import type { ImportRun } from '../../client/types.js';
import { readDirectoryTree } from '../../interop/sources/directory.js';
import { CliError, EXIT } from '../exit-codes.js';
import { client, print, printJson, progressBar } from '../ui.js';

const POLL_MS = 300;
const SHOWN_PROBLEMS = 20;

async function follow(c: RhizomeClient, id: string, label: string, json: boolean): Promise<ImportRun> {
  let run = await c.getImport(id);
  const bar = json ? undefined : progressBar(run.counts.total, label);
  for (;;) {
    const done = run.counts.created + run.counts.updated + run.counts.skipped + run.counts.failed;
    bar?.update(Math.min(done, run.counts.total), { status: `${run.counts.created} new, ${run.counts.updated} updated, ${run.counts.skipped} skipped` });
    if (run.status !== 'running') break;
    await new Promise((r) => setTimeout(r, POLL_MS));
    run = await c.getImport(id);
  }
  bar?.stop();
  return run;
}

function report(run: ImportRun, localProblems: Array<{ path: string; detail: string }>, json: boolean): void {
  const problems = [...localProblems, ...run.problems];
  if (json) return printJson({ ...run, problems });
  const k = run.counts;
  print(`Import ${run.id}: ${run.status}`);
  print(`  created ${k.created}, updated ${k.updated}, skipped ${k.skipped}, failed ${k.failed}, unresolved links ${k.unresolved_links}` +
    (run.kind === 'markdown' ? `, PARA items created ${k.para_items_created}, links set ${k.links_set}` : '') +
    (k.highlights_added || run.kind === 'highlights' ? `, highlights added ${k.highlights_added}` : ''));
  for (const p of problems.slice(0, SHOWN_PROBLEMS)) print(`  ${p.path || '(archive)'}: ${p.detail}`);
  if (problems.length > SHOWN_PROBLEMS) print(`  ... and ${problems.length - SHOWN_PROBLEMS} more (--json lists them all)`);
  if (run.error) print(`  error: ${run.error}`);
}

function exitFor(run: ImportRun): void {
  if (run.status !== 'completed') throw new CliError(`import ${run.status}${run.error ? `: ${run.error}` : ''}`, EXIT.error);
}

export function registerInteropCommands(program: Command): void {
  const imp = program.command('import').description('bring notes and bookmarks in').addHelpText('after', '\nExamples:\n  rhizome import markdown ~/Obsidian/Vault\n  rhizome import bookmarks bookmarks.html');
  imp
    .command('markdown <dir>')
    .description('import a folder of Markdown notes (Obsidian, Logseq, Foam...) or a zip of one; importing again updates the same nodes')
    .addHelpText('after', '\nExamples:\n  rhizome import markdown ~/Obsidian/Vault\n  rhizome import markdown vault.zip --para-from-folders\n  rhizome import markdown ~/notes --json')
    .option('--para-from-folders', 'top-level Projects/, Areas/, Resources/, Archive/ folders become PARA items (else folders become tags)')
    .option('--json', 'print the import run as JSON')
    .action(async (dir: string, o: { paraFromFolders?: boolean; json?: boolean }) => {
      let st;
      try { st = statSync(dir); } catch { throw new CliError(`${dir}: no such folder or zip`, EXIT.usage); }
      let zip: Uint8Array<ArrayBuffer>;
      let local: Array<{ path: string; detail: string }> = [];
      if (st.isDirectory()) {
        const tree = await readDirectoryTree(dir);
        local = tree.problems;
        const { zipBuffer } = await import('../../interop/export/zip-writer.js');
        zip = new Uint8Array(await zipBuffer(tree.files));
      } else zip = new Uint8Array(readFileSync(dir));
      const name = `${basename(resolve(dir)).replace(/\.zip$/i, '')}.zip`;
      const c = client();
      const started = await c.importMarkdown(zip, { name, paraFromFolders: o.paraFromFolders });
      const run = await follow(c, started.id, 'Importing', !!o.json);
      report(run, local, !!o.json);
      exitFor(run);
    });
  imp
    .command('bookmarks <file>')
    .description('import bookmarks as URL captures: Netscape HTML (browsers), Pocket CSV, Omnivore, Karakeep or Linkwarden JSON')
    .addHelpText('after', '\nExamples:\n  rhizome import bookmarks bookmarks.html\n  rhizome import bookmarks pocket-export.csv --json')
    .option('--json', 'print the import run as JSON')
    .action(async (file: string, o: { json?: boolean }) => {
      let data: Uint8Array<ArrayBuffer>;
      try { data = new Uint8Array(readFileSync(file)); } catch { throw new CliError(`${file}: cannot read`, EXIT.usage); }
      const c = client();
      const started = await c.importBookmarks({ name: basename(file), data });
      if (!o.json) print(`Recognised: ${started.format}`);
      const run = await follow(c, started.id, 'Importing', !!o.json);
      report(run, [], !!o.json);
      exitFor(run);
    });

  imp
    .command('highlights <file>')
    .description("import highlights: Kindle's My Clippings.txt or a Readwise CSV export (one node per book; again adds nothing new)")
    .addHelpText('after', '\nExamples:\n  rhizome import highlights "/media/Kindle/documents/My Clippings.txt"\n  rhizome import highlights readwise-export.csv')
    .option('--json', 'print the import run as JSON')
    .action(async (file: string, o: { json?: boolean }) => {
      let data: Uint8Array<ArrayBuffer>;
      try { data = new Uint8Array(readFileSync(file)); } catch { throw new CliError(`${file}: cannot read`, EXIT.usage); }
      const c = client();
      const started = await c.importHighlights({ name: basename(file), data });
      if (!o.json) print(`Recognised: ${started.format}`);
      const run = await follow(c, started.id, 'Importing', !!o.json);
      report(run, [], !!o.json);
      exitFor(run);
    });

  const exp = program.command('export').description('take everything out').addHelpText('after', '\nExamples:\n  rhizome export markdown ~/rhizome-export\n  rhizome export json rhizome.json');
  exp
    .command('markdown <dir>')
    .description('write every node as a Markdown file with YAML front matter, in PARA folders (orphans in Inbox/)')
    .addHelpText('after', '\nExamples:\n  rhizome export markdown ~/rhizome-export\n  rhizome import markdown ~/rhizome-export   # into another tenant: the same graph')
    .action(async (dir: string) => {
      const zip = await client().exportMarkdownZip();
      const { readZip } = await import('../../interop/sources/zip.js');
      const { files, problems } = await readZip(zip);
      if (problems.length) throw new CliError(`the export could not be read: ${problems[0].detail}`, EXIT.error);
      const root = resolve(dir);
      for (const f of files) {
        const target = resolve(join(root, f.path));
        if (!target.startsWith(root + sep)) throw new CliError(`refusing to write outside ${dir}: ${f.path}`, EXIT.error);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, f.bytes);
      }
      print(`Wrote ${files.filter((f) => f.path.endsWith('.md')).length} notes (${files.length} files) to ${dir}`);
    });
  exp
    .command('json <file>')
    .description('write everything as one JSON document ("-" for stdout)')
    .addHelpText('after', '\nExamples:\n  rhizome export json rhizome.json\n  rhizome export json - | jq .nodes[0]')
    .action(async (file: string) => {
      const doc = await client().exportJson();
      const text = JSON.stringify(doc, null, 2) + '\n';
      if (file === '-') process.stdout.write(text);
      else {
        writeFileSync(file, text);
        print(`Wrote ${file}`);
      }
    });
}
