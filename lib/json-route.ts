// The shell of a JSON POST route handler: read and check the body, hand the handler what it needs, and turn
// anything thrown into the `{message, errors?}` answer.
import type { z } from "zod";
import { getDb, type Db } from "@/lib/database";
import { errorResponse } from "./errors";
import { clientIp, readJson } from "./http";

export type RouteContext = { db: Db; ip: string; request: Request };

type Options = {
  /** Runs before the body is read (a rate limit that must also count malformed requests). */
  first?: (request: Request) => Promise<void>;
};

/**
 * `POST = jsonRoute("POST /api/…", schema, async (input, { db, ip }) => Response)`: the body must be JSON
 * (415, 413, 400 otherwise) that `schema` accepts (400 with field errors); `context` names the route in logs.
 */
export function jsonRoute<S extends z.ZodType>(
  context: string,
  schema: S,
  handle: (input: z.output<S>, route: RouteContext) => Promise<Response>,
  options: Options = {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      await options.first?.(request);
      const input = await readJson(request, schema);
      return await handle(input, { db: await getDb(), ip: clientIp(request), request });
    } catch (error) {
      return errorResponse(error, context);
    }
  };
}
