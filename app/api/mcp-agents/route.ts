import { NextResponse } from "next/server";
import { authenticateBearer } from "@/lib/auth/api-tokens";
import { ApiError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { cachedJson } from "@/lib/http/cached-json";
import { toApiAgent } from "@/lib/listings/presenters/api-agent";
import { hasMore, searchListingViews } from "@/lib/listings/search/search";
import { checkAfterResponse } from "@/lib/listings/checks/after-response";
import { submitServer, toSubmittedAgent } from "@/lib/listings/submit/submit-server";
import { apiQuerySchema, decodeCursor, encodeCursor, withDefaultSort } from "@/lib/validations/marketplace";
import { serverSubmissionSchema } from "@/lib/validations/server-submission";

// GET /api/mcp-agents — approved listings as the spec's agent array, filtered and paged in the database.
// X-Total-Count is exact up to 1000 and reads "1000+" past it (counting stops there); Link rel="next" while more follow.
export const GET = route({ name: "GET /api/mcp-agents", query: apiQuerySchema }, async ({ query, db, request }) => {
  const { limit, page, cursor, ...filters } = query;
  if (page && cursor) throw new ApiError(400, "Use either page or cursor, not both.");
  let offset = (page ? page - 1 : 0) * limit;
  if (cursor) {
    const decoded = decodeCursor(cursor);
    if (decoded === null) throw new ApiError(400, "cursor is not valid.", { code: "invalid_cursor" });
    offset = decoded;
  }

  const { items, total, capped } = await searchListingViews(db, withDefaultSort(filters), { limit, offset });
  const headers: Record<string, string> = { "X-Total-Count": capped ? `${total}+` : String(total) };
  if (hasMore({ total, capped }, offset, items.length, limit)) {
    const next = new URL(request.url);
    if (cursor) next.searchParams.set("cursor", encodeCursor(offset + limit));
    else next.searchParams.set("page", String(Math.floor(offset / limit) + 2));
    headers.Link = `<${next.pathname}${next.search}>; rel="next"`;
  }
  return cachedJson(request, items.map(toApiAgent), headers);
});

// POST /api/mcp-agents — a provider submits a server with `Authorization: Bearer agora_…` → 201, pending review.
export const POST = route(
  { name: "POST /api/mcp-agents", authorise: authenticateBearer, body: serverSubmissionSchema },
  async ({ caller: { userId }, body, db }) => {
    const listing = await submitServer(db, userId, body);
    checkAfterResponse(listing.id);
    return NextResponse.json(toSubmittedAgent(listing), { status: 201 });
  },
);
