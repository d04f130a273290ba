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
    const r = spawnSync(join(ROOT, 'node_modules/.bin/redocly'), ['lint', '--extends', 'recommended', '--format', 'stylish', '--max-problems', '500', file], {
      encoding: 'utf8',
      timeout: 60_000,
      // No network here: telemetry and the update check would only wait.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const out = `${r.stdout}\n${r.stderr}`;
    expect(out, out).toMatch(/Woohoo! Your API description is valid|valid/);
    expect(out, out).not.toMatch(/\b\d+ (error|warning)s?\b/);
    expect(r.status, out).toBe(0);
  });
});
