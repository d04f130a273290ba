import { describe, expect, it } from 'vitest';
import { PgQueryError, PgUnavailableError } from '../../src/db/pg/errors.js';
import { problemResponse, toAppError } from '../../src/http/problem.js';

describe('PostgreSQL errors as problems', () => {
  it('an unreachable database is a 503 database_unavailable with Retry-After', async () => {
    const err = toAppError(new PgUnavailableError('cannot reach PostgreSQL at postgres://db/: connection refused'));
    expect(err?.status).toBe(503);
    const res = problemResponse(err!);
    expect(res.headers.get('Retry-After')).toBe('5');
    expect(res.headers.get('Content-Type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ code: 'database_unavailable', status: 503 });
  });

  it('a refused statement is not turned into a client error (it is a bug: 500)', () => {
    expect(toAppError(new PgQueryError('syntax error at or near "SELEC"', '42601'))).toBeNull();
  });
});
