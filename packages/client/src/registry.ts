// The Agora registry, through its own MCP endpoint (`{AGORA_REGISTRY_URL}/mcp`): search with its filters and
// paging, and one listing's MCP URL.
// Answers are checked against the protocol package's schemas, the same ones the registry builds its output on.
import {
  PAID_STYLES,
  deliveryEvidenceSchema,
  registryListingSchema,
  registrySearchAnswerSchema,
  type RegistryListing,
  type RegistrySearchInput,
} from "@agora-mcp/protocol";
import { z } from "zod";
import { ConnectionError, textOf, withConnection, type Connection } from "./connections.js";

export class RegistryError extends Error {}

/** A connection to the registry; one that fails says so, with the setting that names it and what to do. */
async function withRegistry<T>(registryUrl: string, work: (c: Connection) => Promise<T>): Promise<T> {
  const endpoint = registryEndpoint(registryUrl);
  try {
    return await withConnection(endpoint, work);
  } catch (error) {
    if (!(error instanceof ConnectionError)) throw error;
    const reason = error.message.slice(error.message.indexOf(": ") + 2);
    const verb = error.message.startsWith("cannot reach")
      ? "cannot reach the registry at"
      : "no Agora registry answers at";
    throw new RegistryError(
      `${verb} ${endpoint} (AGORA_REGISTRY_URL): ${reason}; AGORA_REGISTRY_URL is the site's address followed by /api, e.g. https://agora.example/api`,
    );
  }
}

/** The site's API base: AGORA_REGISTRY_URL, where a bare site address (no path) means its API at /api. */
export function registryApiBase(registryUrl: string): string {
  const url = new URL(registryUrl);
  return url.pathname === "/" || url.pathname === "" ? `${url.origin}/api` : registryUrl.replace(/\/+$/, "");
}

/** `{AGORA_REGISTRY_URL}/mcp`. */
export function registryEndpoint(registryUrl: string): string {
  return `${registryApiBase(registryUrl)}/mcp`;
}

/** The structured answer, or a RegistryError naming what did not match (a registry of another version, say). */
function checked<T extends z.ZodType>(schema: T, value: unknown, tool: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new RegistryError(
    `The registry's ${tool} answer is not in the expected shape (${issue ? `${issue.path.map(String).join(".") || "answer"}: ${issue.message}` : "unreadable"}).`,
  );
}

/** A search answer whose servers carry the registry's delivery evidence where it sent it. */
const searchWithEvidenceSchema = registrySearchAnswerSchema.extend({
  servers: z.array(registryListingSchema.extend({ delivery30d: deliveryEvidenceSchema.nullish().catch(undefined) })),
});
export type SearchWithEvidence = z.infer<typeof searchWithEvidenceSchema>;

export async function searchRegistry(registryUrl: string, input: RegistrySearchInput): Promise<SearchWithEvidence> {
  return withRegistry(registryUrl, async (c) => {
    const args = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== ""));
    const result = await c.call("search_servers", args);
    if (result.isError || !result.structuredContent)
      throw new RegistryError(`The registry refused the search: ${textOf(result).slice(0, 300)}`);
    return checked(searchWithEvidenceSchema, result.structuredContent, "search_servers");
  });
}

/**
 * The terms the listing shows a person, as the registry's latest check of the server read them (get_server's
 * `pricedItems` and `paymentMethods`): a purchase compares the server's live terms with them, and calls unpaid (for
 * its price) a tool the listing names as a paid item even when its tools/list entry does not say so. A registry that
 * sends none (one not yet checked, or an older version) leaves both empty.
 */
const listedTermsSchema = z.object({
  pricedItems: z
    .array(
      z.object({
        id: z.string().nullable(),
        name: z.string(),
        priceUsd: z.number().nonnegative(),
        paymentMethod: z.string().nullable(),
        toolName: z.string(),
        /** How the item's tool is paid (paid-styles.ts), when the registry's check read it from a paid tool; older registries send none. */
        style: z.enum(PAID_STYLES).nullish().catch(undefined),
      }),
    )
    .default([]),
  paymentMethods: z.array(z.object({ id: z.string(), payTo: z.string().nullable() })).default([]),
  /** The registry's delivery evidence (older registries send none: unknown, as no evidence). */
  delivery30d: deliveryEvidenceSchema.nullish().catch(undefined),
});

export type ListedTerms = z.infer<typeof listedTermsSchema>;
export type ListingWithTerms = RegistryListing & { terms: ListedTerms };

export async function findListing(registryUrl: string, id: string): Promise<ListingWithTerms> {
  return withRegistry(registryUrl, async (c) => {
    const result = await c.call("get_server", { id });
    if (result.isError || !result.structuredContent)
      throw new RegistryError(textOf(result).slice(0, 300) || `No server "${id}" in the registry.`);
    return {
      ...checked(registryListingSchema, result.structuredContent, "get_server"),
      terms: checked(listedTermsSchema, result.structuredContent, "get_server"),
    };
  });
}
