// The one shell of every route handler under app/: check the path's parameters and read the query, count the rate limit,
// authorise, read the body, answer, and turn anything thrown into the error the route's protocol speaks (by default
// JSON `{code, message, errors?}`, lib/errors.ts). Each step runs only when the route declares it, in this order, so a
// route reads as a list of what it takes before the work itself.
import { z } from "zod";
import { getDb, type Db } from "@/lib/database";
import { ApiError, classifyError, errorResponse, validationError } from "@/lib/errors";
import { clientIp } from "@/lib/http/client-address";
import { readBody, readJson, requireJsonContentType, MAX_JSON_BYTES } from "@/lib/http/request-body";
import { enforceLimit, type Limit } from "@/lib/rate-limit";

/** The dynamic segments as Next hands them. */
type Params = Record<string, string | string[]>;

export type RouteSpec<Q, B, A, P = Params> = {
  /** Names the route in logs: "POST /api/mcp-agents". */
  name: string;
  /**
   * The path's dynamic segments (lengths, formats), checked first: a refusal is a 400 with field errors, or, given
   * `notFound`, a 404 with that message, or the one it makes of the segments (for an address that cannot name
   * anything, so is not there).
   */
  params?: z.ZodType<P> | { schema: z.ZodType<P>; notFound: string | ((given: Params) => string) };
  /** The query: a schema for the search parameters (each given once), or a reader of its own (400s it throws stay 400s). */
  query?: z.ZodType<Q> | ((request: Request) => Q);
  /** False for a route that must not touch the database (liveness, readiness, files). */
  database?: false;
  /** Counted per client address before anything else is read, so malformed requests use up the allowance too. */
  rateLimit?: Limit;
  /** Who calls (a 401 or 403 thrown here answers before the body is read). */
  authorise?: (db: Db, request: Request) => Promise<A>;
  /** A JSON body this schema accepts (415, 413 past `maxBodyBytes`, 400 otherwise) … */
  body?: z.ZodType<B>;
  /** … or the raw bytes, at most `maxBytes` (413), after a JSON content type check when `json` (415). */
  rawBody?: { maxBytes: number; json?: boolean };
  maxBodyBytes?: number;
  /** How a failure is answered when the route's protocol is not plain JSON; `thrown` is what was thrown. */
  failure?: (error: ApiError, thrown: unknown) => Response;
};

type RouteContext<Q, B, A, P> = {
  request: Request;
  params: P;
  query: Q;
  /** The parsed JSON body, when the route declares `body`. */
  body: B;
  /** The body's bytes, when the route declares `rawBody` (empty otherwise). */
  raw: Buffer;
  caller: A;
  db: Db;
  ip: string;
};

type Handler<Q, B, A, P> = (context: RouteContext<Q, B, A, P>) => Response | Promise<Response>;

/**
 * `export const GET = route({ name: "GET /x", query: schema }, async ({ query, db }) => Response)`. Next hands the
 * dynamic segments as a promise in the second argument; the handler gets them resolved, and checked by the spec's
 * `params` schema when it has one (its output: a schema may also read the segments into what they name), as `params`.
 */
export function route<Q = undefined, B = undefined, A = undefined, P = Params>(
  spec: RouteSpec<Q, B, A, P>,
  handle: Handler<Q, B, A, P>,
): RouteHandler {
  const handler = async (request: Request, segments?: { params: Promise<Params> }) => {
    try {
      return await handle(await prepare<Q, B, A, P>(spec, request, segments));
    } catch (thrown) {
      if (!spec.failure) return errorResponse(thrown, spec.name);
      return spec.failure(classifyError(thrown, spec.name), thrown);
    }
  };
  // The spec stays readable on the handler: the API description (lib/http/openapi) reads its schemas from it.
  return Object.assign(handler, { spec: spec as RouteSpec<unknown, unknown, unknown, unknown> });
}

/** What `route()` makes: Next's handler, carrying the spec it was made from. */
export type RouteHandler = ((request: Request, segments?: { params: Promise<Params> }) => Promise<Response>) & {
  readonly spec: RouteSpec<unknown, unknown, unknown, unknown>;
};

async function prepare<Q, B, A, P>(
  spec: RouteSpec<Q, B, A, P>,
  request: Request,
  segments?: { params: Promise<Params> },
): Promise<RouteContext<Q, B, A, P>> {
  const params = readParams(spec.params, (await segments?.params) ?? {});
  const query = readQuery(spec.query, request);
  const db = spec.database === false ? noDatabase(spec.name) : await getDb();
  const ip = clientIp(request);
  if (spec.rateLimit) await enforceLimit(db, spec.rateLimit, ip);
  const caller = (spec.authorise ? await spec.authorise(db, request) : undefined) as A;
  let body = undefined as B;
  let raw: Buffer = Buffer.alloc(0);
  if (spec.body) body = await readJson(request, spec.body, spec.maxBodyBytes ?? MAX_JSON_BYTES);
  else if (spec.rawBody) {
    if (spec.rawBody.json) requireJsonContentType(request);
    raw = await readBody(request, spec.rawBody.maxBytes);
  }
  return { request, params, query, body, raw, caller, db, ip };
}

function readParams<P>(spec: RouteSpec<unknown, unknown, unknown, P>["params"], given: Params): P {
  if (!spec) return given as P;
  const schema = spec instanceof z.ZodType ? spec : spec.schema;
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data;
  if (spec instanceof z.ZodType) throw validationError(parsed.error);
  throw new ApiError(404, typeof spec.notFound === "function" ? spec.notFound(given) : spec.notFound);
}

function readQuery<Q>(query: RouteSpec<Q, unknown, unknown>["query"], request: Request): Q {
  if (!query) return undefined as Q;
  if (typeof query === "function") return query(request);
  // A schema reads each parameter once (the last of repeated ones); a refusal is a 400 with field errors.
  const parsed = query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** A database handle that fails loudly: a route that said `database: false` and reached for one anyway is a bug. */
function noDatabase(name: string): Db {
  return new Proxy({} as Db, {
    get() {
      throw new Error(`${name} declared database: false but used the database`);
    },
  });
}
