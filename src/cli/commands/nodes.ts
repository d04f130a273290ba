// search, node add/show/edit/rm, link/unlink, related, suggest.
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import type { Node, NodeInput, NodePatch, NodeStatus, SearchMode } from '../../client/types.js';
import { LINK_TYPES, NODE_STATUSES, SEARCH_MODES } from '../../client/types.js';
import { CliError, EXIT } from '../exit-codes.js';
import { RhizomeApiError } from '../../client/errors.js';
import { resolvePara, resolveParas } from '../para-ref.js';
import { choice, client, collect, details, intOption, print, printJson, readStdin, table } from '../ui.js';

async function contentFrom(opts: { content?: string; file?: string }): Promise<string | undefined> {
  if (opts.content !== undefined && opts.file !== undefined) throw new CliError('give --content or --file, not both', EXIT.usage);
  if (opts.file === '-') return readStdin();
  if (opts.file !== undefined) {
    try {
      return readFileSync(opts.file, 'utf8');
    } catch (e) {
      throw new CliError(`cannot read ${opts.file}: ${(e as NodeJS.ErrnoException).code ?? e}`, EXIT.usage);
    }
  }
  return opts.content;
}

/** The API names a bad link by its place in the set (links.3.target_id): name the node instead. */
function speakOfTargets(e: unknown, from: string, targets: string[]): unknown {
  if (!(e instanceof RhizomeApiError) || e.status !== 400) return e;
  const msgs = e.errors.map((f) => {
    const m = /^links\.(\d+)\.target_id$/.exec(f.path);
    const target = m ? targets[Number(m[1])] : undefined;
    return target ? `${target}: ${f.message}` : `${f.path}: ${f.message}`;
  });
  return new CliError(`cannot link ${from}: ${msgs.join('; ') || e.detail} [400 ${e.code}]`, EXIT.usage);
}

/** The largest batch the API takes (POST /nodes/batch). */
const MAX_BATCH = 500;

/** Node bodies from a JSON array or JSON lines. */
function parseItems(text: string): unknown[] {
  const t = text.trim();
  if (!t) return [];
  try {
    if (t.startsWith('[')) return JSON.parse(t) as unknown[];
    return t.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  } catch (e) {
    throw new CliError(`not JSON or JSON lines: ${(e as Error).message}`, EXIT.usage);
  }
}

export function showNode(n: Node, labels = new Map<string, string>()): void {
  details([
    ['id', n.id], ['title', n.title], ['status', n.status], ['tags', n.tags],
    ['para', n.para_item_ids.length ? n.para_item_ids.map((id) => labels.get(id) ?? id) : '(orphan)'],
    ['created', n.created_at], ['updated', n.updated_at], ...(n.occurred_at ? [['occurred', n.occurred_at] as [string, string]] : []), ['summary', n.summary],
  ]);
  if (n.body_markdown) print(`\n${n.body_markdown}`);
}

interface SearchOpts { mode?: SearchMode; para?: string; status?: NodeStatus; orphan?: boolean; tag?: string[]; after?: string; before?: string; page?: number; perPage?: number; json?: boolean }

async function runSearch(query: string | undefined, o: SearchOpts): Promise<void> {
  const c = client();
  const para = o.para ? await resolvePara(c, o.para) : undefined;
  const r = await c.search({ query, mode: o.mode, para_item_id: para, status: o.status, orphan: o.orphan, tag: o.tag, occurred_after: o.after, occurred_before: o.before, page: o.page, per_page: o.perPage });
  if (o.json) return printJson(r);
  table(
    r.data.map((n) => ({
      id: n.id, title: n.title, status: n.status, tags: n.tags,
      match: n.match_provenance ? `${n.match_provenance.keyword ? 'k' : ''}${n.match_provenance.semantic ? 's' : ''} ${n.match_provenance.score.toFixed(3)}` : '',
      snippet: n.highlights?.length ? markSnippet(n.highlights[0]) : '',
    })),
    ['id', 'title', 'status', 'tags', ...(r.data.some((n) => n.match_provenance) ? ['match'] : []), ...(r.data.some((n) => n.highlights?.length) ? ['snippet'] : [])],
    query ? 'No notes match.' : 'No nodes found.',
  );
  const pages = Math.max(1, Math.ceil(r.total / r.per_page));
  process.stderr.write(`${r.total} result(s), page ${r.page}/${pages}${r.total_matches !== undefined ? `, ${r.total_matches} keyword match(es)` : ''}${r.coverage_capped ? ' (recall capped)' : ''}\n`);
}

export function registerNodeCommands(program: Command): void {
  const searchOptions = (cmd: Command) =>
    cmd
      .option('-m, --mode <mode>', `search mode: ${SEARCH_MODES.join(', ')}`, choice('--mode', SEARCH_MODES))
      .option('--para <id>', 'only nodes under this PARA item')
      .option('--status <status>', `only nodes with this status: ${NODE_STATUSES.join(', ')}`, choice('--status', NODE_STATUSES))
      .option('--orphan', 'only nodes with no PARA item')
      .option('-t, --tag <tag>', 'only nodes carrying this tag (repeat, or comma-separated: all must match)', collect)
      .option('--after <date>', "only nodes dated at or after this (YYYY-MM-DD; the node's occurred date, else its creation)")
      .option('--before <date>', 'only nodes dated before this (YYYY-MM-DD)')
      .option('--page <n>', 'page number', intOption('--page', 1, 1_000_000))
      .option('-n, --per-page <n>', 'results per page (max 100)', intOption('--per-page', 1, 100))
      .option('--json', 'print the API response as JSON');

  searchOptions(program.command('search [query...]'))
    .description('search nodes (hybrid by default); with no query, list nodes newest first')
    .addHelpText('after', '\nExamples:\n  rhizome search walnut orchard\n  rhizome search -m keyword --tag trees --tag farm grafting\n  rhizome search --orphan --json')
    .action(async (words: string[], o: SearchOpts) => runSearch(words.join(' ').trim() || undefined, o));

  const node = program.command('node').description('create, list, show, edit and remove knowledge nodes');
  searchOptions(node.command('list'))
    .description('list nodes newest first, with the same filters as the API (GET /nodes)')
    .option('-q, --query <text>', 'search text (then results are ranked instead)')
    .addHelpText('after', '\nExamples:\n  rhizome node list --tag trees\n  rhizome node list --status validated --para prj_… --json')
    .action(async (o: SearchOpts & { query?: string }) => runSearch(o.query?.trim() || undefined, o));
  node
    .command('add <title>')
    .description('create a node')
    .option('-c, --content <markdown>', 'body text')
    .option('-f, --file <path>', 'read the body from a file ("-" for stdin)')
    .option('-s, --summary <text>', 'short summary')
    .option('-t, --tag <tag>', 'tag (repeat, or comma-separated)', collect)
    .option('--para <id>', 'PARA item id (repeat, or comma-separated)', collect)
    .option('--status <status>', `raw (default), validated, dismissed`, choice('--status', NODE_STATUSES))
    .option('--occurred <date>', 'when what it describes happened (YYYY-MM-DD or ISO date-time)')
    .option('--created <date>', 'when the record was made, if not now (a past event, an import)')
    .option('--json', 'print the created node as JSON')
    .action(async (title: string, o: { content?: string; file?: string; summary?: string; tag?: string[]; para?: string[]; status?: NodeStatus; occurred?: string; created?: string; json?: boolean }) => {
      const c = client();
      const n = await c.createNode({
        title, content: await contentFrom(o), summary: o.summary, tags: o.tag, para_item_ids: await resolveParas(c, o.para), status: o.status,
        ...(o.occurred ? { occurred_at: o.occurred } : {}), ...(o.created ? { created_at: o.created } : {}),
      });
      if (o.json) return printJson(n);
      print(`Created node ${n.id}: ${n.title}`);
    });
  node
    .command('import <file>')
    .description('create many nodes from a JSON array or JSON lines of node bodies (as POST /nodes takes them), 500 a request')
    .option('--json', 'print every per-item result as JSON')
    .addHelpText('after', '\nEach item: {"title", "content"?, "tags"?, "occurred_at"?, "created_at"?, ...}. "-" reads stdin.\n\nExamples:\n  rhizome node import memories.jsonl\n  rhizome node import - < memories.json')
    .action(async (file: string, o: { json?: boolean }) => {
      const text = file === '-' ? await readStdin() : await contentFrom({ file });
      const items = parseItems(text ?? '');
      const c = client();
      const results: unknown[] = [];
      let created = 0;
      let failed = 0;
      for (let i = 0; i < items.length; i += MAX_BATCH) {
        const r = await c.createNodes(items.slice(i, i + MAX_BATCH) as NodeInput[]);
        results.push(...r.results);
        created += r.created;
        failed += r.failed;
        for (const [k, res] of r.results.entries()) if (!('id' in res)) process.stderr.write(`item ${i + k + 1}: ${res.detail}\n`);
      }
      if (o.json) return printJson({ created, failed, results });
      print(`Created ${created} node(s)${failed ? `, ${failed} refused (see above)` : ''}`);
      if (failed) throw new CliError(`${failed} item(s) refused`, EXIT.usage);
    });
  node
    .command('show <id>')
    .description('show a node with its body')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const c = client();
      const n = await c.getNode(id);
      if (o.json) return printJson(n);
      const items = n.para_item_ids.length ? await c.paraList() : [];
      showNode(n, new Map(items.map((p) => [p.id, `${p.label} (${p.category.replace(/s$/, '')}, ${p.id})`])));
    });
  node
    .command('edit <id>')
    .description('change a node: only the options given are changed; with none, edit it in $EDITOR as Markdown with front matter')
    .option('--title <title>', 'new title')
    .option('-c, --content <markdown>', 'new body (replaces it)')
    .option('-f, --file <path>', 'read the new body from a file ("-" for stdin)')
    .option('-s, --summary <text>', 'new summary')
    .option('-t, --tags <tags>', 'replace the tags (comma-separated; "" clears)')
    .option('--para <ids>', 'replace the PARA items (comma-separated; "" makes it an orphan)')
    .option('--status <status>', NODE_STATUSES.join(', '), choice('--status', NODE_STATUSES))
    .option('--occurred <date>', 'when what it describes happened (YYYY-MM-DD; "" clears)')
    .option('--json', 'print the updated node as JSON')
    .action(async (id: string, o: { title?: string; content?: string; file?: string; summary?: string; tags?: string; para?: string; status?: NodeStatus; occurred?: string; json?: boolean }) => {
      const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
      const patch: NodePatch = {};
      if (o.title !== undefined) patch.title = o.title;
      const content = await contentFrom(o);
      if (content !== undefined) patch.content = content;
      if (o.summary !== undefined) patch.summary = o.summary;
      if (o.tags !== undefined) patch.tags = list(o.tags);
      if (o.para !== undefined) patch.para_item_ids = await resolveParas(client(), list(o.para));
      if (o.status !== undefined) patch.status = o.status;
      if (o.occurred !== undefined) patch.occurred_at = o.occurred === '' ? null : o.occurred;
      if (!Object.keys(patch).length) return (await import('../node-editor.js')).editInEditor(id, o.json);
      const n = await client().updateNode(id, patch);
      if (o.json) return printJson(n);
      print(`Updated node ${n.id}: ${Object.keys(patch).join(', ')}`);
    });
  node
    .command('rm <id>')
    .description('delete a node and its links')
    .option('--json', 'print {"deleted": ID} as JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      await client().deleteNode(id);
      if (o.json) return printJson({ deleted: id });
      print(`Deleted node ${id}.`);
    });

  program
    .command('link <from> <to...>')
    .description('link a node to one or more nodes (bidirectional; keeps its other links)')
    .option('--type <type>', `link type: ${LINK_TYPES.join(', ')}`, choice('--type', LINK_TYPES), 'related')
    .option('--json', 'print the node\'s links as JSON')
    .action(async (from: string, to: string[], o: { type: (typeof LINK_TYPES)[number]; json?: boolean }) => {
      const c = client();
      const current = await c.links(from);
      const links = await c.addLinks(from, to.map((target_id) => ({ target_id, type: o.type }))).catch((e: unknown) => {
        throw speakOfTargets(e, from, [...new Set([...current.map((l) => l.target_id), ...to])]);
      });
      if (o.json) return printJson({ node_id: from, links });
      print(`Linked ${from} -[${o.type}]-> ${to.join(', ')} (${links.length} link(s) now).`);
    });
  program
    .command('unlink <from> <to...>')
    .description('remove the links between a node and the given nodes (both directions)')
    .option('--json', 'print the node\'s remaining links as JSON')
    .action(async (from: string, to: string[], o: { json?: boolean }) => {
      const links = await client().removeLinks(from, to);
      if (o.json) return printJson({ node_id: from, links });
      print(`Unlinked ${to.join(', ')} from ${from} (${links.length} link(s) left).`);
    });

  program
    .command('related <id>')
    .description("a node's 1-hop neighbours")
    .option('-n, --limit <n>', 'at most this many (1-500, default 50)', intOption('--limit', 1, 500))
    .option('--json', 'print JSON')
    .action(async (id: string, o: { limit?: number; json?: boolean }) => {
      const nodes = await client().related(id, o.limit);
      if (o.json) return printJson({ nodes });
      table(nodes.map((n) => ({ ...n, type: n.relationship_type })), ['type', 'id', 'title', 'summary'], `${id} has no links.`);
    });

  program
    .command('suggest [text...]')
    .description('nodes a text should link to (text from the arguments, or stdin with "-")')
    .option('--json', 'print JSON')
    .action(async (words: string[], o: { json?: boolean }) => {
      const text = words.length === 1 && words[0] === '-' ? await readStdin() : words.join(' ');
      if (!text.trim()) throw new CliError('give a text, or "-" to read it from stdin', EXIT.usage);
      const suggestions = await client().suggestLinks(text);
      if (o.json) return printJson({ suggestions });
      table(suggestions.map((s) => ({ ...s, score: s.score.toFixed(3) })), ['node_id', 'title', 'score'], 'No suggestions.');
    });
}

/** A highlight with its matched words in [brackets], on one line. */
export function markSnippet(h: { snippet: string; matches: [number, number][] }): string {
  let out = '';
  let at = 0;
  for (const [a, b] of h.matches) {
    out += `${h.snippet.slice(at, a)}[${h.snippet.slice(a, b)}]`;
    at = b;
  }
  return (out + h.snippet.slice(at)).replace(/\s+/g, ' ');
}
