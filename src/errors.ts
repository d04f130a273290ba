// Every error a client can see is an AppError, rendered as problem+json (RFC 9457)
// by src/http/problem.ts. `code` is the stable snake_case word from decisions.md.
export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export class ValidationError extends AppError {
  constructor(detail: string, errors?: FieldError[]) {
    super(400, 'validation_failed', 'Validation failed', detail, errors);
  }
}

export class UnauthorizedError extends AppError {
  constructor(detail = 'Missing or invalid credentials') {
    super(401, 'unauthorized', 'Unauthorized', detail, undefined, {
      'WWW-Authenticate': 'Bearer realm="rhizome", ApiKey realm="rhizome"',
    });
  }
}

export class NotFoundError extends AppError {
  constructor(what = 'Resource') {
    super(404, 'not_found', 'Not found', `${what} not found`);
  }
}

export class MethodNotAllowedError extends AppError {
  constructor(method: string, allow: string[]) {
    super(405, 'method_not_allowed', 'Method not allowed', `${method} is not allowed here; use ${allow.join(', ')}`, undefined, {
      Allow: allow.join(', '),
    });
  }
}

export class ConflictError extends AppError {
  constructor(detail: string) {
    super(409, 'conflict', 'Conflict', detail);
  }
}

export class GoneError extends AppError {
  constructor(detail: string) {
    super(410, 'gone', 'Gone', detail);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(detail: string) {
    // The body may be unread: closing the connection keeps pooled clients safe.
    super(413, 'payload_too_large', 'Payload too large', detail, undefined, { Connection: 'close' });
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(detail: string) {
    super(415, 'unsupported_media_type', 'Unsupported media type', detail);
  }
}

export class RateLimitedError extends AppError {
  constructor(detail: string, retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Too many requests', detail, undefined, {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

/** A valid credential that may not do this (an ordinary key on an operator route, or the reverse). */
export class ForbiddenError extends AppError {
  constructor(detail: string) {
    super(403, 'forbidden', 'Forbidden', detail);
  }
}

/** The tenant's credentials are valid, but an operator has suspended it. */
export class TenantSuspendedError extends AppError {
  constructor() {
    super(403, 'tenant_suspended', 'Tenant suspended', 'This tenant is suspended by the operator of this server; its data is kept but cannot be used until it is resumed');
  }
}
