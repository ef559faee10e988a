// The registry's MCP server: three read-only tools over the approved catalogue. Stateless, one per request.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { registrySearchAnswerSchema } from "@agora-mcp/protocol";
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
import { serverDetailsSchema, serverSummarySchema, toServerDetails, toServerSummary } from "@/lib/listings/presenters/server-details";

const searchOutput = registrySearchAnswerSchema.extend({ servers: z.array(serverSummarySchema) }).shape;
const categoriesOutput = {
  categories: z.array(z.object({ name: z.string(), count: z.number().int() })),
};

// One JSON Schema validator for every server: the SDK otherwise builds a new Ajv instance (its meta-schemas
// compiled) for each, which was most of the cost of the fresh server each stateless request makes.
// The registry asks clients nothing (no elicitation), so the validator is hardly used.
let sharedValidator: AjvJsonSchemaValidator | undefined;

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * Runs a tool's handler; a failure answers a generic tool error and the detail goes to the log only
 * (the SDK would otherwise send the exception's message, SQL included, to an anonymous caller).
 * A failure with a known meaning (the database restarting, text it cannot hold) keeps its safe message.
 */
function guarded<A extends unknown[]>(tool: string, handler: (...args: A) => Promise<CallToolResult>): (...args: A) => Promise<CallToolResult> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      const known = knownFailure(error);
      if (!known || known.status >= 500) logError("MCP tool failed", error, { tool });
      return toolError(known ? known.message : `${tool} failed on our side. Please try again.`);
    }
  };
}

export function createRegistryServer(db: Db): McpServer {
  const server = new McpServer(
    { name: "agora-registry", title: `${site.name} registry`, version: "1.0.0" },
    {
      jsonSchemaValidator: (sharedValidator ??= new AjvJsonSchemaValidator()),
      instructions:
        `${site.name} lists paid MCP tool servers (MonetizedMCP) that charge per call in USDC on Base. ` +
        "Find servers with search_servers, read one with get_server, browse topics with list_categories. No sign-up or keys.",
    },
  );

  server.registerTool(
    "search_servers",
    {
      title: "Search MCP servers",
      description:
        "Search the approved MonetizedMCP servers by text, category and price. With a query the best matches come first " +
        "(relevance: name, then category, then description; close spellings count); other sorts: popular (verified first), purchased (most sales on chain in 30 days first), newest, name. " +
        "Returns each server's id, name, description, categories, price per call, verified flag, sales on chain (30 days and all time), MCP URL and marketplace page, and a cursor for the next page.",
      inputSchema: searchServersShape,
      outputSchema: searchOutput,
      annotations: readOnly,
    },
    guarded("search_servers", async ({ query, category, price, source, sort, limit, cursor }) => {
      const offset = cursor ? decodeCursor(cursor) : 0;
      if (offset === null) return toolError("cursor is not valid: pass the nextCursor of the previous answer unchanged.");
      const result = await searchListingViews(db, withDefaultSort({ q: query, category, price, source, sort }), { limit, offset });
      const servers = result.items.map(toServerSummary);
      const nextCursor = hasMore(result, offset, servers.length, limit) ? encodeCursor(offset + servers.length) : null;
      return {
        content: [{ type: "text", text: searchText(servers, result.total, offset, nextCursor, result.capped) }],
        structuredContent: { servers, total: result.total, totalCapped: result.capped, nextCursor },
      };
    }),
  );

  server.registerTool(
    "get_server",
    {
      title: "Get one MCP server",
      description:
        "Everything the registry knows about one server, by id or slug: description, price, MCP URL, tools with per-tool prices and " +
        "accepted payment methods once verified, the last verification result, and a ready-to-paste client config.",
      inputSchema: getServerShape,
      outputSchema: serverDetailsSchema.shape,
      annotations: readOnly,
    },
    guarded("get_server", async ({ id }) => {
      const listing = await findListingView(db, id);
      if (!listing) return toolError(`No approved MCP server has the id or slug "${id}". Use search_servers to find one.`);
      const details = toServerDetails(listing);
      return { content: [{ type: "text", text: detailsText(details) }], structuredContent: details };
    }),
  );

  server.registerTool(
    "list_categories",
    {
      title: "List categories",
      description: "Every category in use by approved servers, with how many servers carry it. Use a name as search_servers' category.",
      inputSchema: {},
      outputSchema: categoriesOutput,
      annotations: readOnly,
    },
    guarded("list_categories", async () => {
      const categories = await listCategories(db);
      return { content: [{ type: "text", text: categoriesText(categories) }], structuredContent: { categories } };
    }),
  );

  return server;
}
