// feeds list | add | show | pause | resume | poll | remove | export | import.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Feed } from '../../client/types.js';
import { client, collect, details, intOption, print, printJson, table } from '../ui.js';

const row = (f: Feed) => ({ id: f.id, title: f.title, status: f.status, items: f.items_seen, last_polled: f.last_polled_at ?? 'never', error: f.last_error ?? '' });

export function registerFeedCommands(program: Command): void {
  const feeds = program
    .command('feeds')
    .description('feed subscriptions (RSS, Atom, JSON Feed): every new item becomes a capture');

  feeds
    .command('list', { isDefault: true })
    .description('every feed with its status, items seen and last poll')
    .option('--json', 'print the API response as JSON')
    .addHelpText('after', '\nExamples:\n  rhizome feeds\n  rhizome feeds list --json')
    .action(async (o: { json?: boolean }) => {
      const data = await client().feeds();
      if (o.json) return printJson({ data });
      table(data.map(row), ['id', 'title', 'status', 'items', 'last_polled', 'error'], 'No feeds yet: rhizome feeds add <url>');
    });

  feeds
    .command('add <url>')
    .description("subscribe to a feed by its URL, or a page's (its <link rel=\"alternate\"> names the feed)")
    .option('-t, --tag <tags>', 'tags every item gets (repeatable, comma-separated)', collect)
    .option('--para <id>', 'PARA item every item is filed in')
    .option('--interval <minutes>', 'minutes between polls (5..10080, default 60)', intOption('--interval', 5, 10080))
    .option('--json', 'print the feed as JSON')
    .addHelpText('after', '\nExamples:\n  rhizome feeds add https://example.com/blog\n  rhizome feeds add https://example.com/feed.xml -t garden --interval 180')
    .action(async (url: string, o: { tag?: string[]; para?: string; interval?: number; json?: boolean }) => {
      const f = await client().subscribeFeed({ url, ...(o.tag ? { tags: o.tag } : {}), ...(o.para ? { para_item_id: o.para } : {}), ...(o.interval ? { interval_minutes: o.interval } : {}) });
      if (o.json) return printJson(f);
      print(`Subscribed to "${f.title}" (${f.id}) at ${f.url}; polling now, then every ${f.interval_minutes} min.`);
    });

  feeds
    .command('show <id>')
    .description('one feed in full')
    .option('--json', 'print the feed as JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const f = await client().getFeed(id);
      if (o.json) return printJson(f);
      details(Object.entries(f) as Array<[string, unknown]>);
    });

  for (const [name, status, text] of [['pause', 'paused', 'stop polling a feed'], ['resume', 'active', 'poll a paused feed again (at once)']] as const) {
    feeds
      .command(`${name} <id>`)
      .description(text)
      .option('--json', 'print the feed as JSON')
      .action(async (id: string, o: { json?: boolean }) => {
        const f = await client().updateFeed(id, { status });
        if (o.json) return printJson(f);
        print(`"${f.title}" is ${f.status}.`);
      });
  }

  feeds
    .command('poll <id>')
    .description('poll a feed now')
    .action(async (id: string) => {
      await client().pollFeed(id);
      print(`Polling ${id} now.`);
    });

  feeds
    .command('remove <id>')
    .alias('rm')
    .description('unsubscribe (captures already made stay)')
    .action(async (id: string) => {
      await client().deleteFeed(id);
      print(`Unsubscribed ${id}.`);
    });

  feeds
    .command('export [file]')
    .description('the subscriptions as OPML (to FILE, or standard output)')
    .action(async (file?: string) => {
      const xml = await client().exportOpml();
      if (file) {
        writeFileSync(file, xml);
        print(`Wrote ${file}.`);
      } else process.stdout.write(xml);
    });

  feeds
    .command('import <file>')
    .description('subscribe to every feed an OPML file lists (folders become tags); known feeds are skipped')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExamples:\n  rhizome feeds import subscriptions.opml')
    .action(async (file: string, o: { json?: boolean }) => {
      const r = await client().importOpml(readFileSync(file, 'utf8'));
      if (o.json) return printJson(r);
      print(`Imported ${r.imported.length} feed(s); skipped ${r.skipped.length}.`);
      for (const s of r.skipped) print(`  skipped ${s.url}: ${s.reason}`);
    });
}
