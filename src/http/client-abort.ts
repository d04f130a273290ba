// A client that hangs up while its request body is still arriving is not a server fault:
// the body stream errors with "aborted" (or a reset). Such requests are logged at debug
// level and answered (to nobody) with a 400, never as an internal error.
export function isClientAbort(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code;
  return (
    err.message === 'aborted' ||
    err.name === 'AbortError' ||
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'ABORT_ERR'
  );
}
