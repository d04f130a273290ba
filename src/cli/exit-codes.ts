// Exit codes that say what happened (documented in the README).
export const EXIT = {
  ok: 0,
  error: 1, // anything unexpected, or the server said 5xx
  usage: 2, // bad arguments or a 400 validation_failed
  auth: 3, // 401: no or bad credentials
  notFound: 4, // 404
  conflict: 5, // 409/410/429: the request clashes with the current state
  unavailable: 6, // the server could not be reached
} as const;

export class CliError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.error) {
    super(message);
  }
}
