// What a PostgreSQL call can fail with, as the services and the HTTP layer see it: the
// statement was refused (PgQueryError, with its SQLSTATE), or the database could not be
// reached (PgUnavailableError: 503 with Retry-After; nothing was changed).
export class PgQueryError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'PgQueryError';
  }
}

export class PgUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PgUnavailableError';
  }
}
