// Server cards (SEP-2127) over HTTP: one per approved listing at /servers/<slug>/server-card, and the catalogue of
// them (an AI Catalog) at /.well-known/mcp, /.well-known/mcp/catalog.json and /.well-known/ai-catalog.json.
// Public, keyless, read from any origin (the SEP asks for `Access-Control-Allow-Origin: *`).
import { z } from "zod";
import { listCardListings } from "@/db/queries/server-cards";
import { ApiError } from "@/lib/errors";
import { cachedJson } from "@/lib/http/cached-json";
import { route } from "@/lib/http/route";
import { findListingView } from "@/lib/listings/lookup";
import { SERVER_CARD_MEDIA_TYPE, serverCardCatalog, toServerCard } from "@/lib/listings/presenters/server-card";
import { registryFailure } from "./registry-api";

const CORS = { "Access-Control-Allow-Origin": "*" };
const CATALOG_MEDIA_TYPE = "application/ai-catalog+json";
// Every approved listing has a card; the catalogue lists them all, up to a bound no catalogue here comes near.
const CATALOG_MAX = 50_000;

/** The card's own media type when the reader asks for it (as the SEP's discovery says clients should), JSON otherwise. */
function negotiated(request: Request, type: string): Record<string, string> {
  const accept = request.headers.get("accept") ?? "";
  return {
    ...CORS,
    "Content-Type": `${accept.includes(type) ? type : "application/json"}; charset=utf-8`,
    Vary: "Accept, Accept-Encoding",
  };
}

// Cards are named by slug only (an id or a registry name would give one card two addresses): anything else names none.
const cardParams = z.object({ slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/) });

export const getServerCard = route(
  {
    name: "GET /servers/[slug]/server-card",
    params: { schema: cardParams, notFound: "Server card not found" },
    failure: registryFailure,
  },
  async ({ params: { slug }, db, request }) => {
    const listing = await findListingView(db, slug);
    if (!listing || listing.slug !== slug) throw new ApiError(404, "Server card not found");
    return cachedJson(request, toServerCard(listing), negotiated(request, SERVER_CARD_MEDIA_TYPE));
  },
);

export const getServerCardCatalog = route(
  { name: "GET /.well-known/mcp", failure: registryFailure },
  async ({ db, request }) =>
    cachedJson(
      request,
      serverCardCatalog(await listCardListings(db, CATALOG_MAX)),
      negotiated(request, CATALOG_MEDIA_TYPE),
    ),
);
