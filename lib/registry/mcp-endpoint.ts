// HTTP side of /api/mcp: limits first (rate, type, size), then one fresh stateless server per request, on the
// SDK v2: a 2026-07-28 request (its _meta envelope, no handshake) goes to the SDK's per-request modern handler, a
// 2025 client's message to a stateless Streamable HTTP transport; both build the same server (mcp-server.ts).
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
} from "@modelcontextprotocol/server";
import { withoutJsonModeWarning } from "@agora-mcp/protocol";
import type { Db } from "@/db/types";
import type { ApiError, ErrorCode } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { createRegistryServer } from "./mcp-server";

const MAX_MCP_BODY_BYTES = 64 * 1024;
/**
 * JSON-RPC batches are accepted (MCP 2025-03-26 clients may send them) but every message in one counts
 * against the per-address limit, as if sent alone; past this size a batch is refused outright.
 */
export const MAX_MCP_BATCH = 20;

// Public, keyless and read-only: browser-based MCP clients may call it from any origin (no cookies are used).
const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "Mcp-Session-Id, Mcp-Protocol-Version, Retry-After",
};

/** The transport's own Response, with headers added in place (a copy would pipe the body through a second stream). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

/**
 * A JSON-RPC error body with no id, as the Streamable HTTP transport answers requests it cannot take; the refusal's
 * code (lib/errors.ts) is `error.data.code`, as the plain answers in front of the route give it.
 */
function jsonRpcError(
  status: number,
  code: number,
  message: string,
  reason: ErrorCode,
  headers: Record<string, string> = {},
): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code, message, data: { code: reason } }, id: null },
    { status, headers: { ...CORS, "Cache-Control": "no-store", ...headers } },
  );
}

// JSON answers instead of an SSE stream in both eras: every tool answers at once, and nothing outlives the request.
let modern: { db: Db; handler: McpHttpHandler } | undefined;

/** The 2026-07-28 leg, built once per database: it makes a server per request from the same factory. 2025 traffic never reaches it. */
function modernHandler(db: Db): McpHttpHandler {
  if (modern?.db !== db)
    modern = {
      db,
      handler: withoutJsonModeWarning(() =>
        createMcpHandler(() => createRegistryServer(db), {
          legacy: "reject",
          responseMode: "json",
          maxRequestBodySize: MAX_MCP_BODY_BYTES,
        }),
      ),
    };
  return modern.handler;
}

/** The 2025 leg: a stateless transport (no session id) for one message or batch, closed with its server once answered. */
async function answerLegacy(db: Db, request: Request, message: unknown): Promise<Response> {
  const server = createRegistryServer(db);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: message });
  } finally {
    await server.close();
  }
}

/**
 * Failures in JSON-RPC's shape: a refusal (a limit, a body too large, the database down) with its status, the
 * server's own code -32000 and the machine-readable code as `data.code`; anything else an internal error.
 */
function jsonRpcFailure(error: ApiError): Response {
  if (error.code === "internal_error")
    return jsonRpcError(500, -32603, "Internal error. Please try again.", "internal_error");
  return jsonRpcError(error.status, -32000, error.message, error.code, error.headers);
}

export const handleMcpPost = route(
  {
    name: "POST /api/mcp",
    rateLimit: limits.mcpPerIp,
    rawBody: { maxBytes: MAX_MCP_BODY_BYTES, json: true },
    failure: jsonRpcFailure,
  },
  async ({ raw, db, ip, request }) => {
    let message: unknown;
    try {
      message = JSON.parse(raw.toString("utf8"));
    } catch {
      return jsonRpcError(400, -32700, "Parse error: the request body is not valid JSON.", "invalid_json");
    }
    if (Array.isArray(message)) {
      if (message.length === 0)
        return jsonRpcError(
          400,
          -32600,
          "Invalid Request: an empty batch. Send one JSON-RPC message, or a non-empty array of them.",
          "invalid_request",
        );
      if (message.length > MAX_MCP_BATCH)
        return jsonRpcError(
          400,
          -32600,
          `Invalid Request: a batch may hold at most ${MAX_MCP_BATCH} messages.`,
          "invalid_request",
        );
      // The request itself was counted by the route; each further message in the batch counts as one more.
      if (message.length > 1) await enforceLimit(db, limits.mcpPerIp, ip, message.length - 1);
    }

    const response = (await isLegacyRequest(request, message))
      ? await answerLegacy(db, request, message)
      : await modernHandler(db).fetch(request, { parsedBody: message });
    return withHeaders(response, { ...CORS, "Cache-Control": "no-store" });
  },
);

/** GET (a server-sent event stream) and DELETE (end a session) need sessions; this endpoint keeps none. */
export function methodNotAllowed(): Response {
  return jsonRpcError(
    405,
    -32000,
    "Method not allowed: this MCP endpoint is stateless. Send JSON-RPC messages with POST.",
    "method_not_allowed",
    { Allow: "POST, OPTIONS" },
  );
}

export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      "Access-Control-Allow-Methods": "POST, OPTIONS",
      "Access-Control-Allow-Headers":
        "Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID",
      "Access-Control-Max-Age": "86400",
    },
  });
}
