// One error path. Routes throw ApiError; the handler in error-handler.ts shapes every body.
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'INSUFFICIENT_BALANCE'
  | 'FORBIDDEN'
  | 'SCOPE_DENIED'
  | 'DOMAIN_PINNED'
  | 'NOT_FOUND'
  | 'NOT_UNIQUE'
  | 'NOT_IN_SEGMENT'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNPROCESSABLE_ENTITY'
  | 'RISK_REFUSED'
  | 'RATE_LIMITED'
  | 'INTERNAL_SERVER_ERROR'
  | 'SERVICE_UNAVAILABLE';

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Extra top-level fields of the body, e.g. `risk` on RISK_REFUSED. */
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.extra = options.extra;
    this.headers = options.headers;
  }
}

export const badRequest = (message: string) => new ApiError(400, 'BAD_REQUEST', message);
export const notFound = (what: string) => new ApiError(404, 'NOT_FOUND', `${what} not found`);
export const forbidden = (message: string) => new ApiError(403, 'FORBIDDEN', message);
export const conflict = (message: string) => new ApiError(409, 'CONFLICT', message);
