// What another Agora says of a listing beyond server.json: its `_meta["dev.agora-mcp/listing"]` carries the full
// description (server.json's is cut to 100 characters), the categories, when it was listed there and its page
// there (lib/listings/presenters/server-json.ts writes it). Read leniently: a field that does not parse is left
// out, never the entry; text is cleaned like any upstream text.
import { z } from "zod";
import { site } from "@/lib/site";
import { httpUrl, plainText } from "./text";

const MAX_CATEGORIES = 10;
/** lib/listings/presenters/server-json.ts AGORA_META_KEY (not imported: that module brings every presenter). */
const AGORA_META_KEY = `${site.registryNamespace}/listing`;

const metaSchema = z
  .object({
    description: z.string().max(100_000).optional().catch(undefined),
    categories: z.array(z.string().max(100)).max(50).optional().catch(undefined),
    createdAt: z.iso.datetime({ offset: true }).optional().catch(undefined),
    detailUrl: z.string().max(2000).optional().catch(undefined),
  })
  .loose();

export type AgoraListingMeta = {
  description: string | null;
  categories: string[];
  publishedAt: Date | null;
  /** The listing's page on the Agora it came from (server.json's websiteUrl when the listing names no website). */
  detailUrl: string | null;
};

export function agoraListingMeta(serverMeta: Record<string, unknown> | undefined, officialPublishedAt: string | undefined): AgoraListingMeta | null {
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
  };
}
