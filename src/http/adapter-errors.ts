// Responses the Node HTTP layer would otherwise write itself (text/plain or empty 400s):
// a request line Node cannot parse, an oversized header block, a request target like `*`,
// a malformed Host. They leave as problem+json with Connection: close.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { problemResponse } from './problem.js';

function problemBytes(status: number, code: string, title: string, detail: string): string {
  const body = JSON.stringify({ type: `https://rhizome.dev/problems/${code}`, title, status, detail, code });
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' }[status] ?? 'Bad Request';
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Answers requests Node's parser rejects before any handler sees them. */
export function handleClientErrors(server: Server, log: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket) => {
    // A peer that hung up, or a socket already answered: nothing to say to anyone.
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable) return socket.destroy();
    log.debug(`rejected a malformed request (${err.code ?? err.message})`);
    const answer =
      err.code === 'HPE_HEADER_OVERFLOW' ? problemBytes(431, 'headers_too_large', 'Request headers too large', 'The request headers exceed the size this server accepts')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'HPE_HEADERS_TIMEOUT' ? problemBytes(408, 'request_timeout', 'Request timeout', 'The request was not received in time')
      : problemBytes(400, 'bad_request', 'Bad request', 'The request could not be parsed as HTTP/1.1');
    socket.end(answer);
  });
}

/** For the adapter's own failures (request target `*`, malformed Host): problem+json, connection closed. */
export function adapterErrorHandler(log: Logger) {
  return (err: unknown): Response => {
    const isRequestError = err instanceof Error && err.name === 'RequestError';
    const e: AppError = isRequestError
      ? new AppError(400, 'bad_request', 'Bad request', `The request target or Host header is not valid: ${(err as Error).message}`)
      : new AppError(500, 'internal_error', 'Internal error', 'An unexpected error occurred; it has been logged');
    if (!isRequestError) log.error('the HTTP adapter failed', err);
    const res = problemResponse(e);
    res.headers.set('Connection', 'close');
    res.headers.set('X-Content-Type-Options', 'nosniff');
    res.headers.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    return res;
  };
}
