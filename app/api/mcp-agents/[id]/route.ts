import { findListingView } from "@/lib/listings/lookup";
import { ApiError } from "@/lib/errors";
import { cachedJson } from "@/lib/http/cached-json";
import { route } from "@/lib/http/route";
import { toApiAgent } from "@/lib/listings/presenters/api-agent";

// GET /api/mcp-agents/{id} — one approved listing, by id or slug.
export const GET = route<undefined, undefined, undefined, { id: string }>({ name: "GET /api/mcp-agents/[id]" }, async ({ params: { id }, db, request }) => {
  if (id.length > 200) throw new ApiError(400, "id is too long.");
  const listing = await findListingView(db, id);
  if (!listing) throw new ApiError(404, "MCP server not found.");
  return cachedJson(request, toApiAgent(listing));
});
