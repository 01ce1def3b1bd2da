/** The error codes, with their HTTP status. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  SIGNATURE_INVALID: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CSRF_INVALID: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  BILLING_DISABLED: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type FieldErrors = Record<string, string[]>;

/**
 * The one error type services throw. The HTTP boundary maps it to the JSON envelope,
 * an error page or a form error; services never build responses themselves.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: FieldErrors;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { fields?: FieldErrors; status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = opts.status ?? ERROR_STATUS[code];
    this.fields = opts.fields ?? {};
    this.headers = opts.headers ?? {};
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** Shorthands for the errors services throw most. */
export const notFound = (what = "Not found") => new AppError("NOT_FOUND", what);
export const conflict = (message: string) => new AppError("CONFLICT", message);
export const forbidden = (message = "You do not have permission to do that.") => new AppError("FORBIDDEN", message);
export const validationFailed = (fields: FieldErrors, message = "Some fields are not valid.") =>
  new AppError("VALIDATION_FAILED", message, { fields });
