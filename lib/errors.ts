// One error type for every boundary: a status, a stable machine-readable code, a user-facing message, optional
// field errors. Programs branch on `code`; the message is for a person and may be reworded.
import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { isInvalidTextError } from "@/db/errors";
import { reportDatabaseFailure } from "@/db/health";
import { logError } from "./log";

/** The code each status carries unless the thrower names a more precise one. */
const STATUS_CODES = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "body_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
  500: "internal_error",
  502: "upstream_failed",
  503: "unavailable",
} as const;

/** The precise codes a client may want to tell apart from others of the same status, each with its status. */
const PRECISE_CODES = {
  invalid_input: 400,
  invalid_json: 400,
  invalid_cursor: 400,
  unstorable_text: 400,
  invalid_address: 400,
  invalid_form: 400,
  unknown_action: 400,
  sign_in_required: 401,
  invalid_token: 401,
  invalid_credentials: 401,
  session_expired: 401,
  cross_site_request: 403,
  email_taken: 409,
  duplicate_server: 409,
  stale_action: 409,
  busy: 503,
  overloaded: 503,
  restarting: 503,
} as const satisfies Record<string, keyof typeof STATUS_CODES>;

/**
 * Every code an error body can carry. The status codes' own, then the precise ones. Stable: a code is never
 * renamed (a new meaning gets a new code).
 */
export type ErrorCode = (typeof STATUS_CODES)[keyof typeof STATUS_CODES] | keyof typeof PRECISE_CODES;

/** Each code with the status it is answered with (the API description lists them per status). */
export const ERROR_CODE_STATUS = {
  ...(Object.fromEntries(Object.entries(STATUS_CODES).map(([status, code]) => [code, Number(status)])) as Record<
    (typeof STATUS_CODES)[keyof typeof STATUS_CODES],
    number
  >),
  ...PRECISE_CODES,
} satisfies Record<ErrorCode, number>;

/** The codes only a page's form submission (a server action, screened by the proxy) is answered with, never a JSON route. */
export const FORM_ONLY_CODES = [
  "invalid_form",
  "unknown_action",
  "stale_action",
] as const satisfies readonly ErrorCode[];

type ApiErrorOptions = {
  code?: ErrorCode;
  errors?: Record<string, string[]>;
  headers?: Record<string, string>;
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly errors?: Record<string, string[]>;
  readonly headers?: Record<string, string>;

  constructor(
    readonly status: number,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    this.code = options.code ?? codeOfStatus(status);
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

function codeOfStatus(status: number): ErrorCode {
  if (status in STATUS_CODES) return STATUS_CODES[status as keyof typeof STATUS_CODES];
  return status >= 500 ? "internal_error" : "invalid_request";
}

export function fieldErrors(error: ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

export function validationError(error: ZodError): ApiError {
  const errors = fieldErrors(error);
  const first = error.issues[0]?.message ?? "Invalid input";
  return new ApiError(400, first, { code: "invalid_input", errors });
}

const RETRY_AFTER_SECONDS = 5;

/**
 * The ApiError a failure means for the caller, when it has one: the database being unreachable (restarting,
 * too many connections) is a 503 to retry shortly; text the database cannot hold (a NUL byte) is a 400.
 * Neither carries the driver's message (it can hold SQL).
 */
export function knownFailure(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof ZodError) return validationError(error);
  if (reportDatabaseFailure(error)) {
    return new ApiError(503, "The service is briefly unavailable. Please try again in a few seconds.", {
      headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
    });
  }
  if (isInvalidTextError(error))
    return new ApiError(400, "The request contains characters that cannot be stored (such as a NUL byte).", {
      code: "unstorable_text",
    });
  return null;
}

/** What anything thrown at a boundary means for the caller: its ApiError, or a 500 that says nothing more (logged). */
export function classifyError(error: unknown, context?: string): ApiError {
  const known = knownFailure(error);
  if (known) {
    if (known !== error && known.status >= 500) logError("route unavailable", error, { context });
    return known;
  }
  logError("unhandled route error", error, { context });
  return new ApiError(500, "Something went wrong on our side. Please try again.");
}

/** The JSON body of an error: `{code, message, errors?}`. */
export function errorBody(error: ApiError): { code: ErrorCode; message: string; errors?: Record<string, string[]> } {
  return error.errors
    ? { code: error.code, message: error.message, errors: error.errors }
    : { code: error.code, message: error.message };
}

/** Turns anything thrown in a route handler into JSON `{code, message, errors?}`; never leaks a stack. */
export function errorResponse(error: unknown, context?: string): NextResponse {
  const known = classifyError(error, context);
  return NextResponse.json(errorBody(known), { status: known.status, headers: known.headers });
}
