import { cachedJson } from "@/lib/http/cached-json";
import { ApiError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { listingFeedback } from "@/lib/buyer-reviews/feedback";
import { listingKeyParams } from "@/lib/validations/path-params";

// GET /api/buyer-reviews/{listing id or slug}/feedback — the listing's buyer reviews as ERC-8004 reputation
// feedback records (x402 `reputation` extension draft), newest first, with the registry's summary.
export const GET = route(
  { name: "GET /api/buyer-reviews/[listing]/feedback", params: listingKeyParams },
  async ({ params: { listing }, db, request }) => {
    const feedback = await listingFeedback(db, listing);
    if (!feedback) throw new ApiError(404, "MCP server not found.");
    return cachedJson(request, feedback);
  },
);
