// Errors a client of the Rhizome API can see. The server speaks problem+json (RFC 9457);
// each problem becomes one RhizomeApiError carrying the server's own words.
export interface FieldError {
  path: string;
  message: string;
}

export class RhizomeApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    readonly retryAfter?: number,
  ) {
    super(detail);
    this.name = 'RhizomeApiError';
  }

  /** One readable line per problem, field errors included. */
  describe(): string {
    const fields = this.errors.filter((e) => !this.detail.includes(e.message)).map((e) => `\n  ${e.path || '(body)'}: ${e.message}`).join('');
    return `${this.detail}${fields}`;
  }

  static async fromResponse(res: Response): Promise<RhizomeApiError> {
    const text = await res.text().catch(() => '');
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* not JSON: a proxy or a crash page */
    }
    const retry = Number(res.headers.get('retry-after'));
    return new RhizomeApiError(
      res.status,
      typeof body.code === 'string' ? body.code : `http_${res.status}`,
      typeof body.detail === 'string' ? body.detail : text.trim().slice(0, 300) || res.statusText || `HTTP ${res.status}`,
      Array.isArray(body.errors) ? (body.errors as FieldError[]) : [],
      Number.isFinite(retry) && retry > 0 ? retry : undefined,
    );
  }
}

/** The server could not be reached at all (refused, DNS, reset). */
export class RhizomeConnectionError extends Error {
  constructor(readonly apiUrl: string, cause: unknown) {
    const why = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
    super(`cannot reach the Rhizome server at ${apiUrl} (${why}); is it running? (rhizome serve)`);
    this.name = 'RhizomeConnectionError';
  }
}

/** No usable credentials were found. */
export class RhizomeAuthMissingError extends Error {
  constructor(apiUrl: string) {
    super(`no credentials for ${apiUrl}: set RHIZOME_TOKEN to an API key, or run \`rhizome login\``);
    this.name = 'RhizomeAuthMissingError';
  }
}
