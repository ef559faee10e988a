// The listing routes' path parameters, checked by route() (lib/http/route.ts) before any work: a listing is named by
// its id (a UUID) or its slug (at most 100 characters), so a longer key names nothing and is refused unread.
import { z } from "zod";

const MAX_LISTING_KEY = 200;

/** /api/mcp-agents/{id}: the listing's id or slug. */
export const listingIdParams = z.object({ id: z.string().min(1).max(MAX_LISTING_KEY, "id is too long.") });

/** /api/buyer-reviews/{listing}/feedback: the listing's id or slug. */
export const listingKeyParams = z.object({
  listing: z.string().min(1).max(MAX_LISTING_KEY, "The listing key is too long."),
});
