// Inputs of the registry for agents: the MCP tools' arguments and the official-registry API's query.
import { z } from "zod";
import { boundedText, filtersShape } from "./marketplace";

/** A page size from JSON or a query string ("10" is read as 10). */
const pageLimit = (max: number, fallback: number) =>
  z.coerce
    .number({ message: "limit must be a number." })
    .int("limit must be a whole number.")
    .min(1, "limit must be at least 1.")
    .max(max, `limit must be at most ${max}.`)
    .optional()
    .default(fallback);

export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MAX = 50;

/** search_servers: the marketplace's filters under the names agents see, paged by an opaque cursor. */
export const searchServersShape = {
  query: boundedText(200, "query").describe("Words to find in a server's name, description or categories (case-insensitive). Empty: every server."),
  category: filtersShape.category.describe("Exact category name from list_categories, e.g. \"Finance\". Empty or \"all\": every category."),
  price: filtersShape.price.describe("\"free\", \"paid\" or \"all\" (default)."),
  sort: filtersShape.sort.describe("\"popular\" (default: verified servers first, then by name), \"newest\" or \"name\"."),
  limit: pageLimit(SEARCH_LIMIT_MAX, SEARCH_LIMIT_DEFAULT).describe(`How many servers to return, 1 to ${SEARCH_LIMIT_MAX} (default ${SEARCH_LIMIT_DEFAULT}).`),
  cursor: z.string().max(200, "cursor is not valid.").optional().describe("nextCursor from the previous answer, to read the next page with the same filters."),
};

export const getServerShape = {
  id: z.string().trim().min(1, "id is required.").max(200, "id is too long.").describe("The server's id or slug, as returned by search_servers."),
};

export const REGISTRY_LIMIT_DEFAULT = 30;
export const REGISTRY_LIMIT_MAX = 100;

/**
 * GET /v0.1/servers query, as the official MCP Registry names it. Unknown parameters are ignored rather
 * than refused: generic registry clients send options (include_deleted …) that do not apply here.
 */
export const registryListQuerySchema = z.object({
  cursor: z.string().max(300, "cursor is not valid.").optional(),
  limit: pageLimit(REGISTRY_LIMIT_MAX, REGISTRY_LIMIT_DEFAULT),
  search: boundedText(200, "search"),
  updated_since: z.iso
    .datetime({ offset: true, message: "updated_since must be an RFC 3339 date-time, e.g. 2025-08-07T13:15:04.280Z." })
    .optional(),
  version: z.string().trim().max(255, "version must be at most 255 characters.").optional(),
});

export type RegistryListQuery = z.infer<typeof registryListQuerySchema>;
