// Builds the OpenAPI 3.1 description of the JSON API from the routes' own specs: the params, query and body schemas
// each route validates with (lib/http/route.ts keeps its spec on the handler) become its parameters and request body,
// what the spec declares (a body, a rate limit, the database) names the error codes it can answer, and each
// route's entry (app/api/openapi.json/routes.ts) adds its summary, its path parameters' meanings and answers.
import { z } from "zod";
import { ERROR_CODE_STATUS, FORM_ONLY_CODES, type ErrorCode } from "@/lib/errors";
import type { RouteHandler, RouteSpec } from "@/lib/http/route";
import { errorAnswer, jsonRpcErrorAnswer, registryComponents, registryErrorAnswer, type JsonSchema } from "./answers";
import { ERROR_CODE_MEANINGS } from "./error-codes";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type Schema = z.ZodType | JsonSchema;

export type Answer = { status: number; description: string; schema?: Schema };

/** How a route words a refusal: `{code, message}`, the registry's `{error, code, message}`, or JSON-RPC. */
type ErrorShape = "Error" | "RegistryError" | "JsonRpcError";

export type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** The path, `{name}` for each parameter; by default the route file's own (a catch-all route names its paths). */
  path?: string;
  /** The route's handler: its spec gives the query, body, rate limit, authorisation and database use. */
  handler?: RouteHandler;
  /** The query's schema, when the route reads its query with a function of its own. */
  query?: z.ZodObject;
  /** Each path parameter's meaning (its schema is the route spec's `params`, when it names the parameter). */
  params?: Record<string, string>;
  /** The body's schema, when the route reads raw bytes (the spec's `body` is used otherwise). */
  body?: Schema;
  answers: Answer[];
  /** Codes beyond the ones the spec implies (the work's own refusals). */
  errors?: ErrorCode[];
  errorShape?: ErrorShape;
};

/** Route file (relative to the repository, `app/…/route.ts`) → its methods → the operation(s) each serves. */
export type RouteDescriptions = Record<string, Partial<Record<HttpMethod, Operation | Operation[]>>>;

export const operationsOf = (entry: Operation | Operation[] | undefined): Operation[] =>
  entry === undefined ? [] : [entry].flat();

/** `app/(a route group)/api/mcp-agents/[id]/route.ts` → `/api/mcp-agents/{id}`. */
function pathOfRouteFile(file: string): string {
  const segments = file
    .replace(/^app\//, "")
    .replace(/\/?route\.tsx?$/, "")
    .split("/")
    .filter((s) => s && !/^\(.*\)$/.test(s));
  return (
    "/" +
    segments
      .map((s) => {
        if (/^\[\.\.\..+\]$|^\[\[\.\.\..+\]\]$/.test(s))
          throw new Error(`${file} is a catch-all route: its operations name their paths (path: "…").`);
        return s.replace(/^\[(.+)\]$/, "{$1}");
      })
      .join("/")
  );
}

function toJson(schema: Schema, io: "input" | "output"): JsonSchema {
  if (!(schema instanceof z.ZodType)) return schema;
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return json;
}

/** The codes a route can answer, from what its spec declares, and the ones its entry adds. */
function errorCodesOf(operation: Operation): ErrorCode[] {
  const spec: RouteSpec<unknown, unknown, unknown, unknown> | undefined = operation.handler?.spec;
  const codes = new Set<ErrorCode>(operation.errors ?? []);
  if (spec) {
    const reads = spec.query !== undefined || spec.body !== undefined;
    if (spec.query) codes.add("invalid_input");
    if (spec.params) codes.add(spec.params instanceof z.ZodType ? "invalid_input" : "not_found");
    if (spec.body)
      ["invalid_json", "invalid_input", "unsupported_media_type", "body_too_large"].forEach((c) =>
        codes.add(c as ErrorCode),
      );
    if (spec.rawBody) {
      codes.add("body_too_large");
      if (spec.rawBody.json) codes.add("unsupported_media_type");
    }
    if (spec.rateLimit) codes.add("rate_limited");
    if (spec.database !== false) {
      codes.add("unavailable");
      if (reads) codes.add("unstorable_text");
    }
  }
  codes.add("internal_error");
  return [...codes].sort();
}

const WRITE_METHODS = new Set<HttpMethod>(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The codes answered in front of every route, before its handler runs, in the plain `{code, message}` shape (a
 * JSON-RPC error on /api/mcp): the server's preloads (busy, restarting, an unreadable address) and the proxy (a
 * state change from another site; /api/mcp is a public protocol endpoint, exempt).
 */
function frontCodesOf(path: string, method: HttpMethod): ErrorCode[] {
  const codes: ErrorCode[] = ["invalid_address", "overloaded", "restarting"];
  if (WRITE_METHODS.has(method) && path !== "/api/mcp") codes.push("cross_site_request");
  return codes;
}

/** The JSON Schema of each path parameter the route spec's `params` schema names (a catch-all's names its array). */
function paramSchemas(operation: Operation): Record<string, JsonSchema> {
  const spec = operation.handler?.spec.params;
  if (!spec) return {};
  const json = toJson(spec instanceof z.ZodType ? spec : spec.schema, "input") as {
    properties?: Record<string, JsonSchema>;
  };
  return json.properties ?? {};
}

function parameters(path: string, operation: Operation): JsonSchema[] {
  const named = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const schemas = paramSchemas(operation);
  const out: JsonSchema[] = named.map((name) => {
    const description = operation.params?.[name];
    if (!description)
      throw new Error(
        `${operation.operationId}: the path parameter {${name}} has no description (params: { ${name}: "…" }).`,
      );
    const schema = schemas[name]?.type === "string" ? schemas[name] : { type: "string" };
    return { name, in: "path", required: true, description, schema };
  });
  const specQuery = operation.handler?.spec.query;
  const query = operation.query ?? (specQuery instanceof z.ZodType ? specQuery : undefined);
  if (specQuery && !query)
    throw new Error(`${operation.operationId}: the route reads its query with a function; name its schema (query: …).`);
  if (query) {
    const json = toJson(query, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      const parameter: JsonSchema = { name, in: "query", required: json.required?.includes(name) ?? false, schema };
      if (typeof schema.description === "string") parameter.description = schema.description;
      out.push(parameter);
    }
  }
  return out;
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

function responses(operation: Operation, front: ErrorCode[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const answer of operation.answers) {
    out[String(answer.status)] = answer.schema
      ? {
          description: answer.description,
          content: { "application/json": { schema: toJson(answer.schema, "output") } },
        }
      : { description: answer.description };
  }
  const shape = operation.errorShape ?? "Error";
  const own = errorCodesOf(operation);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...own, ...front]))
    byStatus.set(ERROR_CODE_STATUS[code], [...(byStatus.get(ERROR_CODE_STATUS[code]) ?? []), code]);
  const shaped = (as: ErrorShape, codes: ErrorCode[]): JsonSchema =>
    as === "JsonRpcError" ? ref(as) : { allOf: [ref(as), { properties: { code: { enum: codes } } }] };
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const description = codes.map((code) => `\`${code}\`: ${ERROR_CODE_MEANINGS[code]}`).join(" ");
    // A registry route words its own refusals its way; what is answered in front of it is the plain shape.
    const routeCodes = codes.filter((code) => own.includes(code));
    const frontCodes = codes.filter((code) => !own.includes(code));
    const frontShape: ErrorShape = shape === "JsonRpcError" ? shape : "Error";
    const schema =
      frontCodes.length === 0 || frontShape === shape
        ? shaped(shape, codes)
        : routeCodes.length === 0
          ? shaped(frontShape, frontCodes)
          : { oneOf: [shaped(shape, routeCodes), shaped(frontShape, frontCodes)] };
    const existing = out[String(status)];
    if (existing) {
      // The route answers this status itself too (readiness's 503): either shape.
      const content = (existing.content as Record<string, { schema: JsonSchema }> | undefined)?.["application/json"];
      out[String(status)] = {
        description: `${existing.description as string} ${description}`,
        content: { "application/json": { schema: content ? { oneOf: [content.schema, schema] } : schema } },
      };
    } else {
      out[String(status)] = { description, content: { "application/json": { schema } } };
    }
  }
  return out;
}

function describe(path: string, method: HttpMethod, operation: Operation): JsonSchema {
  const spec = operation.handler?.spec;
  const out: JsonSchema = { operationId: operation.operationId, summary: operation.summary, tags: operation.tags };
  if (operation.description) out.description = operation.description;
  const params = parameters(path, operation);
  if (params.length > 0) out.parameters = params;
  const body = operation.body ?? spec?.body;
  if (body) out.requestBody = { required: true, content: { "application/json": { schema: toJson(body, "input") } } };
  if (spec?.authorise) out.security = [{ bearerAuth: [] }];
  const front = frontCodesOf(path, method);
  out.responses = responses(operation, front);
  out["x-error-codes"] = [...new Set([...errorCodesOf(operation), ...front])].sort();
  return out;
}

const TAGS = [
  {
    name: "servers",
    description: "The official MCP Registry's read API (operations and schemas named as its OpenAPI names them)",
  },
  { name: "listings", description: "The marketplace's own listings API" },
  { name: "discovery", description: "x402 Bazaar discovery and search" },
  { name: "mcp", description: "The registry as a remote MCP server (JSON-RPC over Streamable HTTP)" },
  { name: "auth", description: "Accounts and API tokens" },
  { name: "buyer-reviews", description: "Reviews signed by paying wallets" },
  { name: "newsletter", description: "The mailing list" },
  { name: "operations", description: "Liveness, readiness and this description" },
];

/** The whole OpenAPI 3.1 document. Throws, naming the operation, when an entry is incomplete. */
export function openApiDocument(routes: RouteDescriptions): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const ids = new Set<string>();
  for (const [file, methods] of Object.entries(routes)) {
    for (const method of HTTP_METHODS) {
      for (const operation of operationsOf(methods[method])) {
        if (ids.has(operation.operationId))
          throw new Error(`${file}: operationId ${operation.operationId} is used twice.`);
        ids.add(operation.operationId);
        const path = operation.path ?? pathOfRouteFile(file);
        (paths[path] ??= {})[method.toLowerCase()] = describe(path, method, operation);
      }
    }
  }
  const codes = Object.keys(ERROR_CODE_STATUS) as ErrorCode[];
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Agora API",
      version: "1",
      summary: "The marketplace's JSON API, the MCP Registry's read API and x402 Bazaar discovery",
      description:
        "Every refusal carries a stable `code` (the ErrorCode schema lists them with their statuses); programs branch on it, the message is for a person. Each operation lists the codes it may answer in `x-error-codes`, those answered in front of every route (a busy or restarting server, an unreadable address, a write from another site) included. " +
        `${FORM_ONLY_CODES.map((code) => `\`${code}\``).join(", ")} answer a page's form submissions (server actions), never a JSON route.`,
    },
    tags: TAGS,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API token (agora_…) from POST /api/auth/login, /register or /callback, or the account page.",
        },
      },
      schemas: {
        ErrorCode: {
          type: "string",
          enum: codes,
          description:
            "Each code, its HTTP status and meaning:\n" +
            codes.map((code) => `- \`${code}\` (${ERROR_CODE_STATUS[code]}): ${ERROR_CODE_MEANINGS[code]}`).join("\n"),
          oneOf: codes.map((code) => ({
            const: code,
            description: `${ERROR_CODE_STATUS[code]}: ${ERROR_CODE_MEANINGS[code]}`,
          })),
        },
        Error: toJson(errorAnswer, "output"),
        RegistryError: toJson(registryErrorAnswer, "output"),
        JsonRpcError: toJson(jsonRpcErrorAnswer, "output"),
        ...registryComponents,
      },
    },
  };
}
