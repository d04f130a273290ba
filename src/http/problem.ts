// Every error response is application/problem+json (RFC 9457) with a stable `code`.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { isStorageError } from '../db/storage-errors.js';
import { PgQueryError, PgUnavailableError } from '../db/pg/errors.js';
import { QUERY_CANCELED } from '../db/store/statement-scope.js';
import { AppError, PayloadTooLargeError, UnauthorizedError, UnsupportedMediaTypeError, ValidationError } from '../errors.js';

export function problemResponse(err: AppError, instance?: string): Response {
  return new Response(JSON.stringify(problemBody(err, instance)), {
    status: err.status,
    headers: { 'Content-Type': 'application/problem+json', ...err.headers },
  });
}

/** The problem object of an error (RFC 9457), as a response carries it or a batch result lists it. */
export function problemBody(err: AppError, instance?: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: `https://rhizome.dev/problems/${err.code}`,
    title: err.title,
    status: err.status,
    detail: err.detail,
    code: err.code,
  };
  if (err.errors?.length) body.errors = err.errors;
  if (instance) body.instance = instance;
  return body;
}

/** Maps Hono's own exceptions (malformed JSON, body limit, ...) onto our codes. */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (isStorageError(err)) {
    return new AppError(507, 'insufficient_storage', 'Insufficient storage', 'The server cannot store this right now (its disk is full or failing); nothing was changed. Retry later.', undefined, { 'Retry-After': '30' });
  }
  if (err instanceof PgUnavailableError) {
    return new AppError(503, 'database_unavailable', 'Database unavailable', 'The database cannot be reached right now. Retry shortly.', undefined, { 'Retry-After': '5' });
  }
  if (err instanceof PgQueryError && err.code === QUERY_CANCELED) {
    return new AppError(503, 'database_busy', 'Database busy', 'The database did not answer in time (the request was cancelled there); nothing was changed. Retry shortly.', undefined, { 'Retry-After': '2' });
  }
  if (err instanceof HTTPException) {
    const msg = err.message || 'Bad request';
    if (err.status === 400) return new ValidationError(msg.includes('JSON') ? 'Malformed JSON in request body' : msg);
    if (err.status === 401) return new UnauthorizedError(msg);
    if (err.status === 413) return new PayloadTooLargeError(msg);
    if (err.status === 415) return new UnsupportedMediaTypeError('This endpoint takes a JSON body: send Content-Type: application/json');
    return new AppError(err.status, 'http_error', 'Request error', msg);
  }
  return null;
}

export function problem(c: Context, err: AppError): Response {
  return problemResponse(err, new URL(c.req.url).pathname);
}
