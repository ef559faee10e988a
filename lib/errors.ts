// One error type for every boundary: a status, a user-facing message, optional field errors.
import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { isInvalidTextError } from "@/db/errors";
import { reportDatabaseFailure } from "@/db/health";
import { logError } from "./log";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
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
  return new ApiError(400, first, errors);
}

export const RETRY_AFTER_SECONDS = 5;

/**
 * The ApiError a failure means for the caller, when it has one: the database being unreachable (restarting,
 * too many connections) is a 503 to retry shortly; text the database cannot hold (a NUL byte) is a 400.
 * Neither carries the driver's message (it can hold SQL).
 */
export function knownFailure(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof ZodError) return validationError(error);
  if (reportDatabaseFailure(error)) {
    return new ApiError(503, "The service is briefly unavailable. Please try again in a few seconds.", undefined, { "Retry-After": String(RETRY_AFTER_SECONDS) });
  }
  if (isInvalidTextError(error)) return new ApiError(400, "The request contains characters that cannot be stored (such as a NUL byte).");
  return null;
}

/** Turns anything thrown in a route handler into JSON `{message, errors?}`; never leaks a stack. */
export function errorResponse(error: unknown, context?: string): NextResponse {
  const known = knownFailure(error);
  if (known && known !== error) {
    if (known.status >= 500) logError("route unavailable", error, { context });
    return errorResponse(known);
  }
  if (error instanceof ApiError) {
    return NextResponse.json(
      error.errors ? { message: error.message, errors: error.errors } : { message: error.message },
      { status: error.status, headers: error.headers },
    );
  }
  if (error instanceof ZodError) return errorResponse(validationError(error));
  logError("unhandled route error", error, { context });
  return NextResponse.json({ message: "Something went wrong on our side. Please try again." }, { status: 500 });
}
