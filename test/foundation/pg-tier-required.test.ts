// CI must not pass when its PostgreSQL cluster could not start: with
// RHIZOME_TEST_REQUIRE_POSTGRES=1 and no RHIZOME_TEST_DATABASE_URL, the tier's setup fails
// the run; without the requirement it says the tier was skipped and lets the run go on.
import { describe, expect, it, vi } from 'vitest';
import { checkPostgresTier as setup } from '../postgres/tier-setup.js';

describe('the PostgreSQL tier setup', () => {
  it('fails when PostgreSQL is required and no cluster is there', () => {
    expect(() => setup({ RHIZOME_TEST_REQUIRE_POSTGRES: '1' })).toThrow(/PostgreSQL test cluster did not start/);
  });

  it('skips with one line when it is not required', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(() => setup({})).not.toThrow();
      expect(log).toHaveBeenCalledWith(expect.stringContaining('PostgreSQL tier not run'));
    } finally {
      log.mockRestore();
    }
  });
});
