// `npm run lint:openapi`: the served OpenAPI document passes Redocly's recommended rules
// with no error and no warning.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { ROOT } from '../clients/server.js';

let t: TestApp;
beforeAll(async () => (t = await makeTestApp()));
afterAll(() => t.close());

describe('OpenAPI lint', () => {
  it('redocly lint --extends recommended: 0 errors, 0 warnings', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rz-openapi-')), 'openapi.json');
    writeFileSync(file, await (await t.req('GET', '/api/v1/openapi.json')).text());
    const r = spawnSync(join(ROOT, 'node_modules/.bin/redocly'), ['lint', '--extends', 'recommended', '--format', 'json', '--max-problems', '500', file], {
      encoding: 'utf8',
      timeout: 60_000,
      // No network here: telemetry and the update check would only wait.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const out = `${r.stdout}\n${r.stderr}`;
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }> };
    const doc = JSON.parse(await (await t.req('GET', '/api/v1/openapi.json')).text());
    // The one accepted exception: browser-navigation endpoints (identity-provider sign-in
    // and sign-out) answer with a redirect, so their success is a 3xx, not a 2xx.
    const redirectOnly = (pointer: string) => {
      const [, path, method] = pointer.match(/^#\/paths\/([^/]+)\/(\w+)/) ?? [];
      const op = path && doc.paths[path.replace(/~1/g, '/')]?.[method];
      return !!op && Object.keys(op.responses).some((c) => c.startsWith('3')) && !Object.keys(op.responses).some((c) => c.startsWith('2'));
    };
    const problems = report.problems.filter((p) => !(p.ruleId === 'operation-2xx-response' && redirectOnly(p.location[0]?.pointer ?? '')));
    expect(problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`), out).toEqual([]);
  });
});
