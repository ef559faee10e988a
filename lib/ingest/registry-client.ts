// Reads the official MCP Registry's aggregator API (GET /v0.1/servers), page by page, leniently: an entry
// that does not parse is counted and skipped, never the end of the run.
import { z } from "zod";
import type { FetchLike } from "@/lib/ssrf";
import { readJsonBody } from "./read-json";
import { httpUrl, plainText } from "./text";

export const PAGE_SIZE = 100;
const OFFICIAL = "io.modelcontextprotocol.registry/official";
/** The transports a remote server can be checked over (stdio packages are not remote). */
const REMOTE_TYPES = new Set(["streamable-http", "sse"]);

const text = (max: number) => z.string().trim().max(max);
const serverJson = z.object({
  name: text(200).min(1),
  title: text(200).optional(),
  description: text(2000).optional().default(""),
  version: text(100).optional(),
  websiteUrl: text(2000).optional(),
  repository: z.object({ url: text(2000).optional() }).loose().optional(),
  remotes: z.array(z.object({ type: z.string(), url: z.string() }).loose()).max(20).optional(),
  // The registry's earlier shape (still in some entries): transports keyed by type.
  transports: z.record(z.string(), z.object({ url: z.string() }).loose()).optional(),
});
const officialMeta = z
  .object({
    status: z.enum(["active", "deprecated", "deleted"]).catch("active"),
    updatedAt: z.iso.datetime({ offset: true }).optional().catch(undefined),
    isLatest: z.boolean().optional(),
  })
  .loose();
const pageSchema = z.object({
  servers: z.array(z.object({ server: z.unknown(), _meta: z.record(z.string(), z.unknown()).optional() }).loose()).max(1000),
  metadata: z.object({ nextCursor: z.string().max(2000).nullish() }).loose().optional(),
});

export type RegistryServer = {
  name: string;
  title: string | null;
  description: string;
  version: string | null;
  websiteUrl: string | null;
  repositoryUrl: string | null;
  status: "active" | "deprecated" | "deleted";
  updatedAt: Date | null;
  isLatest: boolean;
  remotes: { type: string; url: string }[];
  /** Markup was taken out of the title or description. */
  htmlStripped: boolean;
};

export type RegistryPage = { servers: RegistryServer[]; malformed: number; nextCursor: string | null };

function toServer(entry: { server: unknown; _meta?: Record<string, unknown> }): RegistryServer | null {
  const parsed = serverJson.safeParse(entry.server);
  if (!parsed.success) return null;
  const s = parsed.data;
  const meta = officialMeta.safeParse(entry._meta?.[OFFICIAL] ?? {});
  const official = meta.success ? meta.data : { status: "active" as const, updatedAt: undefined, isLatest: undefined };
  const declared = [...(s.remotes ?? []), ...Object.entries(s.transports ?? {}).map(([type, t]) => ({ type, url: t.url }))];
  const remotes = declared.flatMap((r) => {
    const url = httpUrl(r.url);
    return REMOTE_TYPES.has(r.type) && url ? [{ type: r.type, url }] : [];
  });
  const title = plainText(s.title ?? "", 200);
  const description = plainText(s.description, 2000);
  return {
    name: s.name,
    title: title.text || null,
    description: description.text,
    htmlStripped: title.stripped || description.stripped,
    version: s.version ?? null,
    websiteUrl: httpUrl(s.websiteUrl),
    repositoryUrl: httpUrl(s.repository?.url),
    status: official.status,
    updatedAt: official.updatedAt ? new Date(official.updatedAt) : null,
    // Without the registry's own metadata (another aggregator, an old mirror) an entry counts as latest.
    isLatest: official.isLatest ?? true,
    remotes: [...new Map(remotes.map((r) => [r.url, r])).values()],
  };
}

export function pageUrl(baseUrl: string, cursor: string | null, since: Date | null): string {
  const url = new URL(`${baseUrl}/v0.1/servers`);
  url.searchParams.set("limit", String(PAGE_SIZE));
  if (cursor) url.searchParams.set("cursor", cursor);
  if (since) url.searchParams.set("updated_since", since.toISOString());
  return url.toString();
}

/** One page; throws on a transport failure or an answer that is not the list shape (the caller retries). */
export async function fetchRegistryPage(fetch: FetchLike, url: string): Promise<RegistryPage> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`the registry answered HTTP ${res.status}`);
  const page = pageSchema.safeParse(await readJsonBody(res, "the registry"));
  if (!page.success) throw new Error("the registry's answer is not a server list");
  const servers = page.data.servers.map(toServer);
  return {
    servers: servers.filter((s): s is RegistryServer => s !== null),
    malformed: servers.filter((s) => s === null).length,
    nextCursor: page.data.metadata?.nextCursor || null,
  };
}
