// context and health.
import type { Command } from 'commander';
import { SEARCH_MODES, type SearchMode } from '../../client/types.js';
import { choice, client, collect, details, intOption, print, printJson } from '../ui.js';

export function registerGraphCommands(program: Command): void {
  program
    .command('context [query...]')
    .description('ranked nodes relevant to a session: a query and/or focus nodes whose neighbours are drawn in')
    .option('--focus <ids>', 'focus node id (repeat, or comma-separated)', collect)
    .option('-m, --mode <mode>', SEARCH_MODES.join(', '), choice('--mode', SEARCH_MODES))
    .option('-n, --limit <n>', 'at most this many (1-100, default 20)', intOption('--limit', 1, 100))
    .option('--after <date>', 'nodes dated at or after this first (YYYY-MM-DD); a date in the query does the same')
    .option('--before <date>', 'nodes dated before this first (YYYY-MM-DD)')
    .option('-t, --tag <tag>', 'only nodes carrying this tag (repeat, or comma-separated: all must match)', collect)
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExamples:\n  rhizome context what did Maya adopt\n  rhizome context what happened in March 2023\n  rhizome context --focus nod_… --tag session:42')
    .action(async (words: string[], o: { focus?: string[]; mode?: SearchMode; limit?: number; after?: string; before?: string; tag?: string[]; json?: boolean }) => {
      const query = words.join(' ').trim() || undefined;
      const nodes = await client().context({ query, focus_node_ids: o.focus, mode: o.mode, limit: o.limit, occurred_after: o.after, occurred_before: o.before, tags: o.tag });
      if (o.json) return printJson({ nodes });
      if (nodes.length === 0) return print('No context nodes.');
      for (const [i, n] of nodes.entries()) {
        print(`${i + 1}. ${n.title} [${n.id}] ${(n.occurred_at ?? n.created_at).slice(0, 10)}  score ${n.score.toFixed(3)}  (${n.reasons.join(', ')})`);
        for (const p of n.passages) print(`   > ${p.text.replace(/\s+/g, ' ').trim()}`);
      }
    });

  program
    .command('health')
    .description('server status (version, embedding model, job queue) and graph health counts')
    .option('--json', 'print {"server", "graph"} as JSON')
    .action(async (o: { json?: boolean }) => {
      const c = client();
      const server = await c.serverHealth();
      const graph = await c.graphHealth();
      if (o.json) return printJson({ server, graph });
      details([
        ['server', `${c.apiUrl} — ${server.status}, version ${server.version}, up ${server.uptime_s}s`],
        ['embedding', server.embedding ? `${server.embedding.model} (${server.embedding.dimension}-d) ${server.embedding.state}${server.embedding.error ? `: ${server.embedding.error}` : ''}` : '(needs credentials)'],
        ['jobs queued', server.jobs?.queued ?? '(needs credentials)'],
      ]);
      print('');
      details([
        ['nodes', `${graph.total_nodes} (${graph.validated_nodes} validated, ${graph.stale_nodes} stale)`],
        ['captures', `${graph.total_captures} (${graph.pending_captures} pending)`],
        ['links', graph.total_links],
      ]);
    });
}
