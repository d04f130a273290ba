// `rhizome captures ...`: list, show, lifecycle, activity, provenance, content, check.
import type { Command } from 'commander';
import type { Capture } from '../../client/types.js';
import { CliError, EXIT } from '../exit-codes.js';
import { client, details, intOption, print, printJson, table } from '../ui.js';

function showCapture(c: Capture): void {
  details([
    ['id', c.id], ['status', c.status], ['title', c.title], ['url', c.url], ['type', c.content_type], ['source', c.source], ['why', c.why],
    ['node', c.node_id], ['error', c.error], ['created', c.created_at], ['updated', c.updated_at], ['processed', c.processed_at],
  ]);
  const meta = Object.entries(c.metadata ?? {}).filter(([, v]) => v !== null && v !== undefined);
  if (meta.length) {
    print('metadata:');
    for (const [k, v] of meta) print(`  ${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  }
}

export function registerCapturesCommands(program: Command): void {
  const captures = program.command('captures').description('list and manage captures (see also: rhizome capture)');

  captures
    .command('list', { isDefault: true })
    .description('captures, newest first')
    .option('--status <status>', 'pending, processing, completed, failed, archived, dismissed')
    .option('--page <n>', 'page number', intOption('--page', 1, 1_000_000))
    .option('-n, --per-page <n>', 'per page (max 100)', intOption('--per-page', 1, 100))
    .option('--json', 'print the API response as JSON')
    .action(async (o: { status?: string; page?: number; perPage?: number; json?: boolean }) => {
      const r = await client().captures({ status: o.status, page: o.page, per_page: o.perPage });
      if (o.json) return printJson(r);
      table(r.data.map((c) => ({ ...c, type: c.content_type, created: c.created_at, node: c.node_id })), ['id', 'status', 'type', 'title', 'node', 'created'], 'No captures.');
      process.stderr.write(`${r.total} capture(s), page ${r.page}/${Math.max(1, Math.ceil(r.total / r.per_page))}\n`);
    });

  captures
    .command('show <id>')
    .description('a capture with its metadata and processing status')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const c = await client().getCapture(id);
      if (o.json) return printJson(c);
      showCapture(c);
    });

  const actions = [
    ['retry', 're-queue a failed capture (409 while it is processing)', 'Re-queued'],
    ['reingest', 'run the whole pipeline again (updates the same node)', 'Re-ingesting'],
    ['archive', 'archive a capture', 'Archived'],
    ['unarchive', 'restore an archived capture to its previous status', 'Unarchived'],
    ['dismiss', 'dismiss a capture', 'Dismissed'],
  ] as const;
  for (const [action, description, done] of actions) {
    captures
      .command(`${action} <id>`)
      .description(description)
      .option('--json', 'print the capture as JSON')
      .action(async (id: string, o: { json?: boolean }) => {
        const c = await client().captureAction(id, action);
        if (o.json) return printJson(c ?? { id });
        print(`${done} ${id}${c?.status ? ` (status ${c.status})` : ''}.`);
      });
  }

  captures
    .command('rm <id>')
    .description('delete a capture (the node it produced stays)')
    .option('--json', 'print {"deleted": ID} as JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      await client().deleteCapture(id);
      if (o.json) return printJson({ deleted: id });
      print(`Deleted capture ${id}.`);
    });

  captures
    .command('activity <id>')
    .description('timeline of events for a capture, oldest first')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const data = await client().captureActivity(id);
      if (o.json) return printJson({ data });
      table(data.map((e) => ({ ...e, detail: e.detail === undefined || e.detail === null ? '' : typeof e.detail === 'string' ? e.detail : JSON.stringify(e.detail) })), ['at', 'kind', 'detail'], 'No activity.');
    });

  captures
    .command('provenance <id>')
    .description('the processing chain: each stage with its timing, model and output')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const p = await client().captureProvenance(id);
      if (o.json) return printJson(p);
      table(p.stages.map((s) => ({ ...s, output: typeof s.output === 'string' ? s.output : JSON.stringify(s.output) })), ['stage', 'started_at', 'finished_at', 'model', 'output'], 'No stages yet.');
    });

  captures
    .command('content <id>')
    .description('write the capture\'s raw content (or --markdown: the processed text) to stdout')
    .option('--markdown', 'the processed markdown instead of the raw content')
    .action(async (id: string, o: { markdown?: boolean }) => {
      const r = await client().captureContent(id, o.markdown ? 'markdown' : undefined);
      process.stdout.write(r.body);
    });

  captures
    .command('check <url>')
    .description('was this URL captured, and how did it go? (exit 0 if captured, 4 if not)')
    .option('--json', 'print the capture as JSON')
    .action(async (url: string, o: { json?: boolean }) => {
      const c = await client().checkCapture(url);
      if (!c) throw new CliError(`${url} has not been captured`, EXIT.notFound);
      if (o.json) return print(JSON.stringify(c));
      const how = c.status === 'completed' ? 'captured' : c.status === 'failed' ? `captured, but the fetch failed: ${c.error}` : c.status === 'pending' && c.error ? `captured, waiting to fetch again (${c.error})` : c.status;
      print(`${url}: ${how} (${c.id}${c.node_id ? `, node ${c.node_id}` : ''}).`);
    });

  captures
    .command('check-links')
    .description('check whether each captured page is still there; a 404, 410 or dead domain marks it "original gone" (the archived copy stays)')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExamples:\n  rhizome captures check-links\n  rhizome captures check-links --json')
    .action(async (o: { json?: boolean }) => {
      const r = await client().checkCaptureLinks();
      if (o.json) return printJson(r);
      table(r.gone.map((g) => ({ id: g.capture_id, url: g.url, reason: g.reason })), ['id', 'url', 'reason'], 'Every captured page is still there.');
      process.stderr.write(`${r.checked} checked, ${r.gone.length} gone, ${r.unknown} could not be judged this time\n`);
    });

  captures
    .command('rearchive <id>')
    .description('fetch the page again and replace its archived copy (GET /captures/{id}/snapshot shows it)')
    .addHelpText('after', '\nExamples:\n  rhizome captures rearchive cap_…')
    .action(async (id: string) => {
      const r = await client().rearchiveCapture(id);
      print(`Re-archiving ${r.capture_id} in the background.`);
    });
}
