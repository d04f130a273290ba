// The CLI as an agent's operator uses it for memory: dated notes, many at once from a file,
// and context that prints the passages that matched with their dates.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, startChildServer, type ChildServer } from './server.js';

let srv: ChildServer;
beforeAll(async () => {
  srv = await startChildServer();
}, 120_000);
afterAll(async () => {
  await srv?.stop();
});

it('adds dated nodes, imports a JSON-lines file in batches, and prints context passages with dates', async () => {
  const env = srv.env({ RHIZOME_TOKEN: srv.apiKey });
  const add = await runCli(['node', 'add', 'Lisbon trip', '-c', 'We ate custard tarts in Belem.', '--occurred', '2023-05-20', '--json'], env);
  expect(add.code, add.stderr).toBe(0);
  expect(JSON.parse(add.stdout)).toMatchObject({ occurred_at: '2023-05-20T00:00:00.000Z' });

  const dir = mkdtempSync(join(tmpdir(), 'rz-cli-mem-'));
  const file = join(dir, 'memories.jsonl');
  const lines = Array.from({ length: 620 }, (_, i) => JSON.stringify({ title: `Turn ${i}`, content: i === 7 ? 'We adopted a beagle called Biscuit.' : `chit chat ${i}`, created_at: '2023-03-10T10:00:00Z' }));
  lines.push(JSON.stringify({ content: 'no title here' }));
  writeFileSync(file, lines.join('\n'));
  const imp = await runCli(['node', 'import', file], env);
  expect(imp.code).toBe(2); // one item refused: a usage error, the rest written
  expect(imp.stdout).toMatch(/Created 620 node\(s\), 1 refused/);
  expect(imp.stderr).toMatch(/item 621: .*title/);

  const ctx = await runCli(['context', 'beagle', 'in', 'March', '2023'], env);
  expect(ctx.code, ctx.stderr).toBe(0);
  expect(ctx.stdout).toMatch(/^1\. Turn 7 \[nod_\w+\] 2023-03-10 .*date_match:March 2023/m);
  expect(ctx.stdout).toMatch(/> We adopted a beagle called Biscuit\./);

  const found = await runCli(['search', '--after', '2023-05-01', '--before', '2023-06-01', '--json'], env);
  expect(JSON.parse(found.stdout).data.map((n: { title: string }) => n.title)).toEqual(['Lisbon trip']);
  const show = await runCli(['node', 'show', JSON.parse(add.stdout).id], env);
  expect(show.stdout).toMatch(/occurred:\s+2023-05-20T00:00:00.000Z/);
}, 120_000);
