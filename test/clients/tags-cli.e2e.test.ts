// Tags from the shell: `rhizome tags list|rename|delete` and `rhizome node list --tag`,
// against a real server in a child process, output into a pipe (never cut).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startChildServer, type ChildServer } from './server.js';

let srv: ChildServer;
const cli = (...args: string[]) => runCli(args, srv.env());

beforeAll(async () => {
  srv = await startChildServer();
});
afterAll(() => srv?.stop());

describe('rhizome tags', { timeout: 120_000 }, () => {
  it('lists, renames (merging), deletes, and node list filters by every given tag', async () => {
    const long = `A very long title that a terminal table would cut ${'x'.repeat(150)}`;
    const a = JSON.parse((await cli('node', 'add', long, '-t', 'trees,farm', '--json')).stdout);
    const b = JSON.parse((await cli('node', 'add', 'Second', '-t', 'trees,orchard', '--json')).stdout);

    const list = await cli('tags');
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^NAME\s+COUNT/);
    expect(list.stdout).toMatch(/^trees\s+2$/m);

    const both = await cli('node', 'list', '--tag', 'trees', '--tag', 'farm');
    expect(both.code).toBe(0);
    expect(both.stdout).toContain(a.id);
    expect(both.stdout).toContain(long); // into a pipe: the whole title
    expect(both.stdout).not.toContain(b.id);
    const json = JSON.parse((await cli('node', 'list', '-t', 'trees', '--json')).stdout);
    expect(json.data.map((n: { id: string }) => n.id).sort()).toEqual([a.id, b.id].sort());

    const ren = await cli('tags', 'rename', 'orchard', 'farm');
    expect(ren.code).toBe(0);
    expect(ren.stdout).toMatch(/Renamed "orchard" to "farm" \(2 node\(s\)\)/);
    expect(JSON.parse((await cli('tags', 'list', '--json')).stdout).data).toEqual([
      { name: 'farm', count: 2 },
      { name: 'trees', count: 2 },
    ]);

    expect((await cli('tags', 'delete', 'trees')).code).toBe(0);
    expect(JSON.parse((await cli('tags', '--json')).stdout).data).toEqual([{ name: 'farm', count: 2 }]);

    const missing = await cli('tags', 'delete', 'trees');
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/^rhizome: Tag not found \[404 not_found\]/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);

    const help = await cli('tags', 'rename', '--help');
    expect(help.stdout).toMatch(/Examples:/);
  });
});
