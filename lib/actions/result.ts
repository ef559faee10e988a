// What every server action answers: data, or the same `{message, errors?}` a route handler would send.
import { unstable_rethrow } from "next/navigation";
import { ApiError, knownFailure } from "@/lib/errors";
import { logError } from "@/lib/log";

export type ActionResult<T = null> =
  | { ok: true; data: T }
  | { ok: false; status: number; message: string; errors?: Record<string, string[]> };

export async function actionResult<T>(context: string, run: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    unstable_rethrow(error); // redirects and other framework signals pass through
    const known = knownFailure(error);
    if (known && known.status >= 500) logError("action unavailable", error, { context });
    if (known instanceof ApiError) return { ok: false, status: known.status, message: known.message, ...(known.errors ? { errors: known.errors } : {}) };
    logError("unhandled action error", error, { context });
    return { ok: false, status: 500, message: "Something went wrong on our side. Please try again." };
  }
}
