import { getDb } from "@/lib/database";
import { cachedJson } from "@/lib/cached-json";
import { ApiError, errorResponse } from "@/lib/errors";
import { listingFeedback } from "@/lib/buyer-reviews/feedback";

// GET /api/buyer-reviews/{listing id or slug}/feedback — the listing's buyer reviews as ERC-8004 reputation
// feedback records (x402 `reputation` extension draft), newest first, with the registry's summary.
export async function GET(request: Request, { params }: { params: Promise<{ listing: string }> }) {
  try {
    const { listing } = await params;
    if (listing.length > 200) throw new ApiError(400, "The listing key is too long.");
    const feedback = await listingFeedback(await getDb(), listing);
    if (!feedback) throw new ApiError(404, "MCP server not found.");
    return cachedJson(request, feedback);
  } catch (error) {
    return errorResponse(error, "GET /api/buyer-reviews/[listing]/feedback");
  }
}
