import { getDb } from "@/lib/database";
import { findListingView } from "@/lib/listings/lookup";
import { ApiError, errorResponse } from "@/lib/errors";
import { cachedJson } from "@/lib/cached-json";
import { toApiAgent } from "@/lib/listings/presenters/api-agent";

// GET /api/mcp-agents/{id} — one approved listing, by id or slug.
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await params;
    if (id.length > 200) throw new ApiError(400, "id is too long.");
    const listing = await findListingView(await getDb(), id);
    if (!listing) throw new ApiError(404, "MCP server not found.");
    return cachedJson(request, toApiAgent(listing));
  } catch (error) {
    return errorResponse(error, "GET /api/mcp-agents/[id]");
  }
}
