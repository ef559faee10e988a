// What the registry tells agents about a listing. The zod schemas are the MCP tools' output schemas,
// and the same facts travel in server.json's `_meta` on the official-registry API.
import { z } from "zod";
import { registryListingSchema } from "@agora-mcp/protocol";
import type { ListingView } from "@/lib/listings/model";
import { probeFacts, probeFactsSchema, statusFacts, statusFactsSchema } from "@/lib/listings/presenters/facts";
import { clientConfig } from "@/lib/listings/presenters/connect-config";
import { provenanceFacts, provenanceSchema } from "@/lib/listings/presenters/provenance";
import { isFree } from "@/lib/listings/format";
import { site, siteUrl } from "@/lib/site";

export const serverSummarySchema = registryListingSchema.extend(statusFactsSchema.shape).extend(provenanceSchema.shape);

export const serverDetailsSchema = serverSummarySchema.extend(probeFactsSchema.shape).extend({
  registryName: z.string().describe("The server's name in the official-registry API (/v0.1/servers)."),
  clientConfig: z
    .object({
      mcpServers: z.record(
        z.string(),
        z.object({ command: z.string(), args: z.array(z.string()), env: z.record(z.string(), z.string()) }),
      ),
    })
    .describe("Desktop-assistant config for the Agora client, which finds and pays this server."),
});

export type ServerSummary = z.infer<typeof serverSummarySchema>;
export type ServerDetails = z.infer<typeof serverDetailsSchema>;

export function registryName(slug: string): string {
  return `${site.registryNamespace}/${slug}`;
}

/**
 * A listing's name in the registry API: an imported registry entry keeps its upstream name, as the official
 * registry asks of aggregators (suffixed when another listing had that name first), stored when it was listed
 * (lib/ingest/naming.ts); everything else is named in Agora's namespace by its slug. The API finds a listing by
 * this same name (db/queries/listings.ts findListingByRegistryName), never by parsing a slug out of it.
 */
export function registryNameOf(listing: Pick<ListingView, "slug" | "registryName">): string {
  return listing.registryName ?? registryName(listing.slug);
}

export function detailUrl(slug: string): string {
  return `${siteUrl()}/marketplace/${slug}`;
}

/** The stable address of the listing's MCP Server Card (SEP-2127), which Agora publishes for every approved listing. */
export function serverCardUrl(slug: string): string {
  return `${siteUrl()}/servers/${slug}/server-card`;
}

export function toServerSummary(listing: ListingView): ServerSummary {
  return {
    id: listing.id,
    slug: listing.slug,
    name: listing.name,
    description: listing.description,
    categories: listing.categories,
    price: listing.price,
    free: isFree(listing.price),
    verified: listing.verified,
    serverUrl: listing.serverUrl,
    detailUrl: detailUrl(listing.slug),
    websiteUrl: listing.websiteUrl,
    createdAt: listing.createdAt,
    updatedAt: listing.updatedAt,
    ...statusFacts(listing),
    ...provenanceFacts(listing),
  };
}

export function toServerDetails(listing: ListingView): ServerDetails {
  return {
    ...toServerSummary(listing),
    ...probeFacts(listing),
    registryName: registryNameOf(listing),
    clientConfig: clientConfig(),
  };
}
