// An OAuth protocol error (RFC 6749 §5.2, RFC 7591 §3.2.2): answered as
// {"error", "error_description"} JSON, not problem+json, because OAuth clients parse that.
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  body() {
    return { error: this.error, error_description: this.description };
  }
}

/**
 * A failure the authorization pages show to the person in the browser (RFC 6749 §4.1.2.1:
 * with an unknown client or redirect URI there is nobody safe to redirect to).
 */
export class ConsentPageError extends Error {
  constructor(
    readonly title: string,
    readonly detail: string,
    readonly status = 400,
  ) {
    super(detail);
    this.name = 'ConsentPageError';
  }
}
