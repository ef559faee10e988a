// What every server action answers: data, or the same `{code, message, errors?}` a route handler would send.
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import type { User } from "@/db/schema";
import { requireAdmin } from "@/lib/auth/admin";
import { requireSessionUserId } from "@/lib/auth/current-user";
import { ApiError, knownFailure, type ErrorCode } from "@/lib/errors";
import { logError } from "@/lib/log";

export type ActionResult<T = null> =
  | { ok: true; data: T }
  | { ok: false; status: number; code: ErrorCode; message: string; errors?: Record<string, string[]> };

export async function actionResult<T>(context: string, run: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    unstable_rethrow(error); // redirects and other framework signals pass through
    const known = knownFailure(error);
    // As route handlers do (lib/errors.ts classifyError): a failure translated into a 5xx is logged; an ApiError
    // thrown as the answer (503 busy: the sign-in queue is full) is not a fault, and a burst must not log stacks.
    if (known && known !== error && known.status >= 500) logError("action unavailable", error, { context });
    if (known instanceof ApiError)
      return {
        ok: false,
        status: known.status,
        code: known.code,
        message: known.message,
        ...(known.errors ? { errors: known.errors } : {}),
      };
    logError("unhandled action error", error, { context });
    return {
      ok: false,
      status: 500,
      code: "internal_error",
      message: "Something went wrong on our side. Please try again.",
    };
  }
}

/**
 * The shell of an action: `guard` (who may call it) runs first, then `values` are parsed with `schema`, then
 * `run` gets both; whatever is thrown (a 401 from the guard, a ZodError, an ApiError) becomes the ActionResult.
 */
async function guardedAction<G, S extends z.ZodType, T>(
  context: string,
  guard: () => Promise<G>,
  schema: S,
  values: unknown,
  run: (input: z.output<S>, caller: G) => Promise<T>,
): Promise<ActionResult<T>> {
  return actionResult(context, async () => {
    const caller = await guard();
    return run(schema.parse(values), caller);
  });
}

const nobody = async () => undefined;

/** An action anyone may call (the input is still checked with `schema`). */
export function action<S extends z.ZodType, T>(
  context: string,
  schema: S,
  values: unknown,
  run: (input: z.output<S>) => Promise<T>,
) {
  return guardedAction(context, nobody, schema, values, run);
}

/** An action for signed-in users: a 401 (and a stale session cookie cleared) before the input is looked at. */
export function userAction<S extends z.ZodType, T>(
  context: string,
  schema: S,
  values: unknown,
  run: (input: z.output<S>, userId: string) => Promise<T>,
) {
  return guardedAction(context, requireSessionUserId, schema, values, run);
}

/** An action for admins: 401 without a session, 403 for anyone else, before the input is looked at. */
export function adminAction<S extends z.ZodType, T>(
  context: string,
  schema: S,
  values: unknown,
  run: (input: z.output<S>, admin: User) => Promise<T>,
) {
  return guardedAction(context, requireAdmin, schema, values, run);
}
