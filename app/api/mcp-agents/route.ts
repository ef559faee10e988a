import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { authenticateBearer } from "@/lib/auth/api-tokens";
import { ApiError, errorResponse, validationError } from "@/lib/errors";
import { readJson } from "@/lib/http";
import { cachedJson } from "@/lib/cached-json";
import { toApiAgent } from "@/lib/listings/presenters/api-agent";
import { hasMore, searchListingViews } from "@/lib/listings/search/search";
import { checkAfterResponse } from "@/lib/listings/checks/after-response";
import { submitServer, toSubmittedAgent } from "@/lib/listings/submit/submit-server";
import { apiQuerySchema, decodeCursor, encodeCursor, withDefaultSort } from "@/lib/validations/marketplace";
import { serverSubmissionSchema } from "@/lib/validations/server-submission";

// GET /api/mcp-agents — approved listings as the spec's agent array, filtered and paged in the database.
// X-Total-Count is exact up to 1000 and reads "1000+" past it (counting stops there); Link rel="next" while more follow.
export async function GET(request: Request) {
  try {
    const url = new URL(request.url);
    const parsed = apiQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw validationError(parsed.error);
    const { limit, page, cursor, ...filters } = parsed.data;
    if (page && cursor) throw new ApiError(400, "Use either page or cursor, not both.");
    let offset = (page ? page - 1 : 0) * limit;
    if (cursor) {
      const decoded = decodeCursor(cursor);
      if (decoded === null) throw new ApiError(400, "cursor is not valid.");
      offset = decoded;
    }

    const db = await getDb();
    const { items, total, capped } = await searchListingViews(db, withDefaultSort(filters), { limit, offset });
    const headers: Record<string, string> = { "X-Total-Count": capped ? `${total}+` : String(total) };
    if (hasMore({ total, capped }, offset, items.length, limit)) {
      const next = new URL(url);
      if (cursor) next.searchParams.set("cursor", encodeCursor(offset + limit));
      else next.searchParams.set("page", String(Math.floor(offset / limit) + 2));
      headers.Link = `<${next.pathname}${next.search}>; rel="next"`;
    }
    return cachedJson(request, items.map(toApiAgent), headers);
  } catch (error) {
    return errorResponse(error, "GET /api/mcp-agents");
  }
}

// POST /api/mcp-agents — a provider submits a server with `Authorization: Bearer agora_…` → 201, pending review.
export async function POST(request: Request) {
  try {
    const db = await getDb();
    const { userId } = await authenticateBearer(db, request);
    const input = await readJson(request, serverSubmissionSchema);
    const listing = await submitServer(db, userId, input);
    checkAfterResponse(listing.id);
    return NextResponse.json(toSubmittedAgent(listing), { status: 201 });
  } catch (error) {
    return errorResponse(error, "POST /api/mcp-agents");
  }
}
