// One error type for every boundary: a status, a user-facing message, optional field errors.
import { NextResponse } from "next/server";
import { ZodError } from "zod";
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

/** Turns anything thrown in a route handler into JSON `{message, errors?}`; never leaks a stack. */
export function errorResponse(error: unknown, context?: string): NextResponse {
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
