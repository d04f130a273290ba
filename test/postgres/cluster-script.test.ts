// scripts/pg-test-cluster.sh: start gives a working URL on a free port in a temp folder;
// stop stops that cluster and removes the folder (and touches no other cluster).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { connectPg } from '../../src/db/pg/connect.js';
import { describePg } from './helpers.js';

describePg('the throw-away cluster script', () => {
  it('starts a second cluster beside the tier one, then stops and removes it', async () => {
    const out = execFileSync('bash', ['scripts/pg-test-cluster.sh', 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const dir = /RHIZOME_TEST_PG_DIR=(\S+)/.exec(out)![1];
    const url = /RHIZOME_TEST_DATABASE_URL=(\S+)/.exec(out)![1];
    try {
      expect(url).not.toBe(process.env.RHIZOME_TEST_DATABASE_URL);
      const c = await connectPg(url);
      expect((await c.query('SELECT current_database() AS d')).rows[0].d).toBe('rhizome_test');
      await c.end();
    } finally {
      execFileSync('bash', ['scripts/pg-test-cluster.sh', 'stop', dir], { stdio: 'ignore' });
    }
    expect(existsSync(dir)).toBe(false);
    await expect(connectPg(url, { connectTimeoutMs: 2000 })).rejects.toThrow(/cannot reach PostgreSQL/);
    // The tier's own cluster is untouched.
    const tier = await connectPg(process.env.RHIZOME_TEST_DATABASE_URL!);
    await tier.end();
  });
});
