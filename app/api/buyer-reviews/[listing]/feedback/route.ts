import { cachedJson } from "@/lib/http/cached-json";
import { ApiError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { listingFeedback } from "@/lib/buyer-reviews/feedback";

// GET /api/buyer-reviews/{listing id or slug}/feedback — the listing's buyer reviews as ERC-8004 reputation
// feedback records (x402 `reputation` extension draft), newest first, with the registry's summary.
export const GET = route<undefined, undefined, undefined, { listing: string }>(
  { name: "GET /api/buyer-reviews/[listing]/feedback" },
  async ({ params: { listing }, db, request }) => {
    if (listing.length > 200) throw new ApiError(400, "The listing key is too long.");
    const feedback = await listingFeedback(db, listing);
    if (!feedback) throw new ApiError(404, "MCP server not found.");
    return cachedJson(request, feedback);
  },
);
