// Maps client-side failures onto the CLI's exit codes, with the server's own message.
import { RhizomeApiError, RhizomeAuthMissingError, RhizomeConnectionError } from '../client/errors.js';
import { CliError, EXIT } from './exit-codes.js';

export function exitCodeForStatus(status: number): number {
  if (status === 400 || status === 413 || status === 415 || status === 422) return EXIT.usage;
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 409 || status === 410 || status === 429) return EXIT.conflict;
  return EXIT.error;
}

/** A CliError for anything the client throws; other errors pass through unchanged. */
export function toCliError(e: unknown): unknown {
  if (e instanceof RhizomeApiError) {
    return new CliError(`${e.describe()} [${e.status} ${e.code}]`, exitCodeForStatus(e.status));
  }
  if (e instanceof RhizomeConnectionError) return new CliError(e.message, EXIT.unavailable);
  if (e instanceof RhizomeAuthMissingError) return new CliError(e.message, EXIT.auth);
  return e;
}
