// The spec's MCP agent shape for the public JSON API.
import type { ListingView } from "@/lib/listings/model";
import { joinCategories } from "@/lib/categories";
import { probeFacts, type ProbeFacts } from "@/lib/listings/presenters/facts";
import { provenanceFacts, type Provenance } from "@/lib/listings/presenters/provenance";

/** The spec's fields keep their shapes; what the probe knows follows them (additive). */
type ApiAgent = {
  id: string;
  name: string;
  description: string;
  categories: string;
  price: number | null;
  verified: boolean;
  createdAt: string;
  website_url: string | null;
} & ProbeFacts &
  Provenance;

export function toApiAgent(listing: ListingView): ApiAgent {
  return {
    id: listing.id,
    name: listing.name,
    description: listing.description,
    categories: joinCategories(listing.categories),
    price: listing.price,
    verified: listing.verified,
    createdAt: listing.createdAt,
    website_url: listing.websiteUrl,
    ...probeFacts(listing),
    ...provenanceFacts(listing),
  };
}
