// The registry's MCP server: three read-only tools over the approved catalogue. Stateless, one per request.
//
// Built on the SDK's low-level Server rather than McpServer, for the cost of each call: McpServer rebuilds every
// tool's zod objects per server (one per request here, each compiled again on first use), converts them to JSON
// Schema on every tools/list, and validates each answer against its output schema at run time: a deep copy of
// the 24 summaries a search returns, ~160 KB and a fifth of the endpoint's own time per call. Here the schemas
// are built and converted once, inputs are validated as before, and the outputs' conformance to the advertised
// schemas is checked by the tests (tests/integration/registry-mcp.test.ts) instead of on every call.
//
// On the SDK v2 one server serves both eras: a 2026-07-28 request (no handshake, no session) and a 2025 client that
// starts with initialize get the same tools, schemas and texts; only the 2026 codec adds cache fields to tools/list
// and server/discover (the hints below).
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CacheHint,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { z } from "zod";
import { CATALOGUE_SORT_MEANINGS, CATALOGUE_SORTS, registrySearchAnswerSchema } from "@agora-mcp/protocol";
import { findListingView } from "@/lib/listings/lookup";
import { listCategories } from "@/db/queries/listings";
import { hasMore, searchListingViews } from "@/lib/listings/search/search";
import type { Db } from "@/db/types";
import { knownFailure } from "@/lib/errors";
import { logError } from "@/lib/log";
import { site } from "@/lib/site";
import { decodeCursor, encodeCursor, withDefaultSort } from "@/lib/validations/marketplace";
import { getServerShape, searchServersShape } from "@/lib/validations/registry";
import { categoriesText, detailsText, searchText } from "@/lib/listings/presenters/mcp-text";
import {
  serverDetailsSchema,
  serverSummarySchema,
  toServerDetails,
  toServerSummary,
} from "@/lib/listings/presenters/server-details";

type RegistryTool<I extends z.ZodObject> = {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodObject;
  run: (db: Db, args: z.output<I>) => Promise<CallToolResult>;
};

// Inferred per tool, then widened for the table below (each entry's run only ever sees its own input's output).
const defineTool = <I extends z.ZodObject>(t: RegistryTool<I>) => t as unknown as RegistryTool<z.ZodObject>;

function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** "relevance: best matches first (…); popular: …": each sort with its meaning, as the protocol states it. */
const sortsText = CATALOGUE_SORTS.map((sort) => `${sort}: ${CATALOGUE_SORT_MEANINGS[sort]}`).join("; ");

const tools = [
  defineTool({
    name: "search_servers",
    title: "Search MCP servers",
    description:
      "Search the approved MonetizedMCP servers by text, category and price. A query matches the name, then the category, then the description; close spellings count. " +
      `Sorts: ${sortsText}. ` +
      "Returns each server's id, name, description, categories, price per call, verified flag, sales on chain (30 days and all time), MCP URL and marketplace page, and a cursor for the next page.",
    input: z.object(searchServersShape),
    output: registrySearchAnswerSchema.extend({ servers: z.array(serverSummarySchema) }),
    run: async (db, { query, category, price, source, sort, limit, cursor }) => {
      const offset = cursor ? decodeCursor(cursor) : 0;
      if (offset === null)
        return toolError("cursor is not valid: pass the nextCursor of the previous answer unchanged.");
      const result = await searchListingViews(db, withDefaultSort({ q: query, category, price, source, sort }), {
        limit,
        offset,
      });
      const servers = result.items.map(toServerSummary);
      const nextCursor = hasMore(result, offset, servers.length, limit) ? encodeCursor(offset + servers.length) : null;
      return {
        content: [{ type: "text", text: searchText(servers, result.total, offset, nextCursor, result.capped) }],
        structuredContent: { servers, total: result.total, totalCapped: result.capped, nextCursor },
      };
    },
  }),
  defineTool({
    name: "get_server",
    title: "Get one MCP server",
    description:
      "Everything the registry knows about one server, by id, slug or MCP URL: description, price, MCP URL, tools with per-tool prices and " +
      "accepted payment methods once verified, the last verification result, and a ready-to-paste client config.",
    input: z.object(getServerShape),
    output: serverDetailsSchema,
    run: async (db, { id }) => {
      const listing = await findListingView(db, id);
      if (!listing)
        return toolError(`No approved MCP server has the id, slug or URL "${id}". Use search_servers to find one.`);
      const details = toServerDetails(listing);
      return { content: [{ type: "text", text: detailsText(details) }], structuredContent: details };
    },
  }),
  defineTool({
    name: "list_categories",
    title: "List categories",
    description:
      "Every category in use by approved servers, with how many servers carry it. Use a name as search_servers' category.",
    input: z.object({}),
    output: z.object({ categories: z.array(z.object({ name: z.string(), count: z.number().int() })) }),
    run: async (db) => {
      const categories = await listCategories(db);
      return { content: [{ type: "text", text: categoriesText(categories) }], structuredContent: { categories } };
    },
  }),
];

const toolsByName = new Map(tools.map((t) => [t.name, t]));

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The tools/list answer, converted once: JSON Schema draft-07 of what a call takes (input) and answers (output). */
const toolList: Tool[] = tools.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: z.toJSONSchema(t.input, { target: "draft-7", io: "input" }) as Tool["inputSchema"],
  outputSchema: z.toJSONSchema(t.output, { target: "draft-7", io: "output" }) as Tool["outputSchema"],
  annotations: readOnly,
  // No `execution`: taskSupport "forbidden" is what its absence means, and 2026-07-28 (tasks now an extension)
  // drops the field, so leaving it out keeps tools/list identical in both eras.
}));

/** "query must be at most 200 characters.", "id: Invalid input: expected string, received undefined". */
function inputProblems(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return !path || issue.message.startsWith(path) ? issue.message : `${path}: ${issue.message}`;
    })
    .join("\n");
}

/** The text v1's McpError gave these refusals (v2's ProtocolError drops the prefix): kept, so no client sees a change. */
const invalidParams = (message: string) => `MCP error -32602: ${message}`;

/**
 * Runs one tool call. A tool that does not exist is a protocol error, JSON-RPC -32602 (Invalid Params), as the
 * specification, the SDKs and Agora's own kit answer it: there is no tool to have failed. Every other failure is a
 * tool error (isError): arguments that do not fit say so (the specification asks for input validation as a tool
 * error, so the model can correct itself); anything else answers a generic message and the detail goes to the log
 * only (the exception's message, SQL included, must not reach an anonymous caller). A failure with a known meaning
 * (the database restarting, text it cannot hold) keeps its safe message.
 */
async function callTool(db: Db, name: string, args: unknown): Promise<CallToolResult> {
  const tool = toolsByName.get(name);
  if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name.slice(0, 100)} not found`);
  const input = tool.input.safeParse(args ?? {});
  if (!input.success)
    return toolError(
      invalidParams(`Input validation error: Invalid arguments for tool ${name}: ${inputProblems(input.error)}`),
    );
  try {
    return await tool.run(db, input.data);
  } catch (error) {
    const known = knownFailure(error);
    if (!known || known.status >= 500) logError("MCP tool failed", error, { tool: name });
    return toolError(known ? known.message : `${name} failed on our side. Please try again.`);
  }
}

// One JSON Schema validator for every server: the SDK otherwise builds a new Ajv instance (its meta-schemas
// compiled) for each. The registry asks clients nothing (no input requests), so it is hardly used.
let sharedValidator: AjvJsonSchemaValidator | undefined;

/**
 * Cache hints for the 2026-07-28 era (ttlMs, cacheScope). The tool list and the server's identity change only when
 * the site is deployed, and they are the same for every caller (no keys, no accounts): an hour, shareable. Search
 * answers are tool results, which the protocol does not cache: the catalogue itself changes with every approval.
 */
const REGISTRY_CACHE_HINT: CacheHint = { ttlMs: 60 * 60 * 1000, cacheScope: "public" };

export function createRegistryServer(db: Db): Server {
  const server = new Server(
    { name: "agora-registry", title: `${site.name} registry`, version: "1.0.0" },
    {
      // No listChanged: the tool list never changes while the site runs, and nothing here outlives a request.
      capabilities: { tools: {} },
      jsonSchemaValidator: (sharedValidator ??= new AjvJsonSchemaValidator()),
      cacheHints: { "tools/list": REGISTRY_CACHE_HINT, "server/discover": REGISTRY_CACHE_HINT },
      instructions:
        `${site.name} lists paid MCP tool servers (MonetizedMCP) that charge per call in USDC on Base. ` +
        "Find servers with search_servers, read one with get_server, browse topics with list_categories. No sign-up or keys.",
    },
  );
  server.setRequestHandler("tools/list", () => ({ tools: toolList }));
  server.setRequestHandler("tools/call", (request) => callTool(db, request.params.name, request.params.arguments));
  return server;
}
