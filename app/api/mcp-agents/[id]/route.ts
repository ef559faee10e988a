import { findListingView } from "@/lib/listings/lookup";
import { ApiError } from "@/lib/errors";
import { cachedJson } from "@/lib/http/cached-json";
import { route } from "@/lib/http/route";
import { toApiAgent } from "@/lib/listings/presenters/api-agent";
import { listingIdParams } from "@/lib/validations/path-params";

// GET /api/mcp-agents/{id} — one approved listing, by id or slug.
export const GET = route(
  { name: "GET /api/mcp-agents/[id]", params: listingIdParams },
  async ({ params: { id }, db, request }) => {
    const listing = await findListingView(db, id);
    if (!listing) throw new ApiError(404, "MCP server not found.");
    return cachedJson(request, toApiAgent(listing));
  },
);
