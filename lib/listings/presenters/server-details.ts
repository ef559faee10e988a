// What the registry tells agents about a listing. The zod schemas are the MCP tools' output schemas,
// and the same facts travel in server.json's `_meta` on the official-registry API.
import { z } from "zod";
import type { ListingView } from "@/lib/listings/model";
import { probeFacts, probeFactsSchema, statusFacts, statusFactsSchema } from "@/lib/listings/presenters/facts";
import { clientConfig } from "@/lib/listings/presenters/connect-config";
import { isFree } from "@/lib/listings/format";
import { site, siteUrl } from "@/lib/site";

export const serverSummarySchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  categories: z.array(z.string()),
  price: z.number().nullable().describe("USD per call of the cheapest item; null or 0 means free."),
  free: z.boolean(),
  verified: z.boolean(),
  serverUrl: z.string().describe("The server's MCP endpoint (Streamable HTTP)."),
  detailUrl: z.string().describe("The listing's page in the marketplace."),
  websiteUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).extend(statusFactsSchema.shape);

export const serverDetailsSchema = serverSummarySchema.extend(probeFactsSchema.shape).extend({
  registryName: z.string().describe("The server's name in the official-registry API (/v0.1/servers)."),
  clientConfig: z
    .object({ mcpServers: z.record(z.string(), z.object({ command: z.string(), args: z.array(z.string()), env: z.record(z.string(), z.string()) })) })
    .describe("Desktop-assistant config for the Agora client, which finds and pays this server."),
});

export type ServerSummary = z.infer<typeof serverSummarySchema>;
export type ServerDetails = z.infer<typeof serverDetailsSchema>;

export function registryName(slug: string): string {
  return `${site.registryNamespace}/${slug}`;
}

export function detailUrl(slug: string): string {
  return `${siteUrl()}/marketplace/${slug}`;
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
  };
}

export function toServerDetails(listing: ListingView): ServerDetails {
  return {
    ...toServerSummary(listing),
    ...probeFacts(listing),
    registryName: registryName(listing.slug),
    clientConfig: clientConfig(),
  };
}
