// What the registry tells agents about a listing. The zod schemas are the MCP tools' output schemas,
// and the same facts travel in server.json's `_meta` on the official-registry API.
import { z } from "zod";
import type { PublicListing } from "@/db/queries/listings";
import { clientConfig } from "@/lib/marketplace/connect-config";
import { isFree } from "@/lib/marketplace/format";
import { site, siteUrl } from "@/lib/site";

// Filled by the server check (reads price-listing and payment-methods); empty until it has run.
export const toolPriceSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  priceUsd: z.number().nullable().describe("USD per call; null when the tool is free."),
  paymentMethods: z.array(z.string()).describe("Ids of the payment methods this tool accepts, e.g. USDC_BASE_SEPOLIA."),
});

export const paymentMethodSchema = z.object({
  id: z.string().describe("Payment method id, e.g. USDC_BASE_SEPOLIA."),
  network: z.string().nullable().describe("Chain, e.g. base-sepolia."),
  asset: z.string().nullable().describe("Token, e.g. USDC."),
  payTo: z.string().nullable().describe("The provider's receiving wallet address."),
});

export const verificationSchema = z.object({
  status: z.enum(["passed", "failed"]),
  checkedAt: z.string().describe("ISO 8601 time of the check."),
  message: z.string().nullable(),
});

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
});

export const serverDetailsSchema = serverSummarySchema.extend({
  registryName: z.string().describe("The server's name in the official-registry API (/v0.1/servers)."),
  tools: z.array(toolPriceSchema).describe("Tools with per-tool prices; empty until the server check has read them."),
  paymentMethods: z.array(paymentMethodSchema).describe("Accepted payment methods; empty until the server check has read them."),
  lastVerification: verificationSchema.nullable().describe("The latest server check; null until one has run."),
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

export function toServerSummary(listing: PublicListing): ServerSummary {
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
  };
}

export function toServerDetails(listing: PublicListing): ServerDetails {
  return {
    ...toServerSummary(listing),
    registryName: registryName(listing.slug),
    tools: [],
    paymentMethods: [],
    lastVerification: null,
    clientConfig: clientConfig(),
  };
}
