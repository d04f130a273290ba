// Feeds from the shell and from an MCP client, against a real server in a child process.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, startChildServer, type ChildServer } from '../clients/server.js';
import { startFeedServer, type FeedServer } from './feed-server.js';

let srv: ChildServer;
let fs: FeedServer;
const cli = (...args: string[]) => runCli(args, srv.env({ RHIZOME_TOKEN: srv.apiKey }));

beforeAll(async () => {
  fs = await startFeedServer();
  fs.items.set('/rss.xml', [{ guid: 'a', title: 'Seed saving', link: fs.url('/p/a'), content: 'Dry the seeds well.' }]);
  fs.items.set('/feed.json', [{ guid: 'b', title: 'Hedge laying', link: fs.url('/p/b'), content: 'Lay the hedge in winter.' }]);
  srv = await startChildServer(0, { RHIZOME_ALLOW_PRIVATE_FETCH: '1' });
});
afterAll(async () => {
  await srv?.stop();
  await fs.close();
});

describe('feeds faces', { timeout: 120_000 }, () => {
  it('CLI: add, list, pause, resume, export and import OPML', async () => {
    const add = await cli('feeds', 'add', fs.url('/rss.xml'), '-t', 'seeds', '--interval', '120', '--json');
    expect(add.code).toBe(0);
    const f = JSON.parse(add.stdout);
    expect(f).toMatchObject({ title: 'Garden Notes', tags: ['seeds'], interval_minutes: 120 });
    const list = await cli('feeds');
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+TITLE\s+STATUS/);
    expect(list.stdout).toContain('Garden Notes');
    expect((await cli('feeds', 'pause', f.id)).stdout).toContain('is paused');
    expect((await cli('feeds', 'resume', f.id)).stdout).toContain('is active');
    const file = join(mkdtempSync(join(tmpdir(), 'opml-')), 'subs.opml');
    expect((await cli('feeds', 'export', file)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain(`xmlUrl="${fs.url('/rss.xml')}"`);
    const again = await cli('feeds', 'import', file);
    expect(again.stdout).toMatch(/Imported 0 feed\(s\); skipped 1/);
    const bad = await cli('feeds', 'add', fs.url('/plain-page'));
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/no feed here/);
  });

  it('MCP: subscribe_feed and list_feeds', async () => {
    const c = new Client({ name: 't', version: '1' });
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env: srv.env({ RHIZOME_TOKEN: srv.apiKey }), stderr: 'pipe' }));
    try {
      const sub = (await c.callTool({ name: 'subscribe_feed', arguments: { url: fs.url('/feed.json'), tags: ['hedges'] } })) as CallToolResult;
      expect(sub.isError).toBeFalsy();
      expect((sub.structuredContent as { title: string }).title).toBe('Json Journal');
      const listed = (await c.callTool({ name: 'list_feeds', arguments: {} })) as CallToolResult;
      const text = listed.content.map((x) => (x.type === 'text' ? x.text : '')).join('\n');
      expect(text).toContain('Json Journal');
      expect(text).toContain(fs.url('/feed.json'));
      const refused = (await c.callTool({ name: 'subscribe_feed', arguments: { url: fs.url('/feed.json') } })) as CallToolResult;
      expect(refused.isError).toBe(true);
    } finally {
      await c.close();
    }
  });
});
