// What another Agora says of a listing beyond server.json: its `_meta["dev.agora-mcp/listing"]` carries the full
// description (server.json's is cut to 100 characters), the categories, when it was listed there and its page
// there (lib/listings/presenters/server-json.ts writes it). Read leniently: a field that does not parse is left
// out, never the entry; text is cleaned like any upstream text.
import { z } from "zod";
import { LISTING_SOURCES } from "@agora-mcp/protocol";
import type { ProvenanceHop } from "@/db/schema";
import { site } from "@/lib/site";
import { httpUrl, plainText } from "./text";

const MAX_CATEGORIES = 10;
/** The longest chain of registries kept: a longer one is cut to its first hops (where the entry was published). */
export const MAX_HOPS = 20;
/** lib/listings/presenters/server-json.ts AGORA_META_KEY (not imported: that module brings every presenter). */
const AGORA_META_KEY = `${site.registryNamespace}/listing`;

const metaSchema = z
  .object({
    description: z.string().max(100_000).optional().catch(undefined),
    categories: z.array(z.string().max(100)).max(50).optional().catch(undefined),
    createdAt: z.iso.datetime({ offset: true }).optional().catch(undefined),
    detailUrl: z.string().max(2000).optional().catch(undefined),
    id: z.string().max(100).optional().catch(undefined),
    registry: z
      .object({ name: z.string().max(100) })
      .loose()
      .optional()
      .catch(undefined),
    // Where the listing was first published and every registry it passed through before this one.
    registries: z
      .array(
        z
          .object({
            kind: z.enum(LISTING_SOURCES).catch("mcp-registry"),
            name: z.string().max(100),
            url: z.string().max(2000),
            entryUrl: z.string().max(2000).nullish(),
            listingId: z.string().max(100).nullish(),
          })
          .loose(),
      )
      .max(MAX_HOPS)
      .optional()
      .catch(undefined),
  })
  .loose();

export type AgoraListingMeta = {
  description: string | null;
  categories: string[];
  publishedAt: Date | null;
  /** The listing's page on the Agora it came from (server.json's websiteUrl when the listing names no website). */
  detailUrl: string | null;
  /** The listing's id there, and that Agora's own name for itself ("Agora" when it gives none). */
  listingId: string | null;
  registryName: string;
  /** The registries the listing came through before that Agora, oldest first. */
  registries: ProvenanceHop[];
};

export function agoraListingMeta(
  serverMeta: Record<string, unknown> | undefined,
  officialPublishedAt: string | undefined,
): AgoraListingMeta | null {
  const raw = serverMeta?.[AGORA_META_KEY];
  if (raw === undefined) return null;
  const parsed = metaSchema.safeParse(raw);
  if (!parsed.success) return null;
  const m = parsed.data;
  const categories = (m.categories ?? []).map((c) => plainText(c, 50).text).filter(Boolean);
  const published = m.createdAt ?? officialPublishedAt;
  return {
    description: m.description ? plainText(m.description, 1000).text || null : null,
    categories: [...new Set(categories)].slice(0, MAX_CATEGORIES),
    publishedAt: published ? new Date(published) : null,
    detailUrl: httpUrl(m.detailUrl),
    listingId: m.id ?? null,
    registryName: plainText(m.registry?.name ?? "", 100).text || site.name,
    registries: (m.registries ?? []).flatMap((h) => {
      const url = httpUrl(h.url);
      const name = plainText(h.name, 100).text;
      return url && name
        ? [
            {
              kind: h.kind,
              name,
              url: url.replace(/\/$/, ""),
              entryUrl: httpUrl(h.entryUrl),
              listingId: h.listingId ?? null,
            },
          ]
        : [];
    }),
  };
}
