// The operator key as an operator gets it: `rhizome operator create-key` on the data folder
// of a running server, then /metrics and the admin routes with it over real HTTP; listed
// without its secret; revoked, it stops working at once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cli, credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';

let srv: ChildServer;
let dir: string;
beforeAll(async () => {
  dir = tempDataDir();
  srv = await startServer(dir);
}, 120_000);
afterAll(async () => {
  await srv?.stop();
});

it('create-key, use it, list-keys, revoke-key', async () => {
  const env = { RHIZOME_DATA_DIR: dir };
  const made = await cli(['operator', 'create-key', '--name', 'prometheus', '--json'], env);
  expect(made.code, made.stderr).toBe(0);
  const key = JSON.parse(made.stdout) as { id: string; name: string; key: string };
  expect(key).toMatchObject({ name: 'prometheus' });
  expect(key.key.startsWith(`${key.id}.`)).toBe(true);
  const auth = { Authorization: `ApiKey ${key.key}` };

  const metrics = await fetch(`${srv.url}/metrics`, { headers: auth });
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toMatch(/^rhizome_tenants\{status="active"\} 1$/m);
  const tenants = (await (await fetch(`${srv.url}/api/v1/admin/tenants`, { headers: auth })).json()) as { data: Array<{ name: string }> };
  expect(tenants.data.map((t) => t.name)).toEqual(['default']);
  // The tenant's own key (written by the first start) is refused there.
  expect((await fetch(`${srv.url}/metrics`, { headers: { Authorization: `ApiKey ${credentials(dir).api_key}` } })).status).toBe(403);

  const listed = await cli(['operator', 'list-keys', '--json'], env);
  expect(listed.code).toBe(0);
  expect(listed.stdout).not.toContain(key.key.split('.')[1]);
  expect((JSON.parse(listed.stdout) as { data: Array<{ id: string; last_used_at: string | null }> }).data).toEqual([
    expect.objectContaining({ id: key.id, name: 'prometheus', last_used_at: expect.any(String) }),
  ]);

  expect((await cli(['operator', 'revoke-key', key.id], env)).code).toBe(0);
  expect((await fetch(`${srv.url}/metrics`, { headers: auth })).status).toBe(401);
  expect((await cli(['operator', 'revoke-key', key.id], env)).code).toBe(4);
  expect((await cli(['operator', 'create-key', '--name', ''], env)).code).toBe(2);
});
