// Reads the official MCP Registry's aggregator API (GET /v0.1/servers), page by page, leniently: each entry is
// read on its own, so one that does not parse is counted (with its position and reason) and skipped, never the
// end of its page or of the run. An upstream that is another Agora carries each listing's full text, categories
// and dates under `_meta["dev.agora-mcp/listing"]` (server.json's own fields are cut to 100 characters); those
// are kept (lib/ingest/agora-meta.ts). An entry that names its paid tools (`_meta["dev.agora-mcp/paid-tools"]`)
// has them kept too, for the probe to call (lib/ingest/paid-tool-names.ts).
import { z } from "zod";
import type { FetchLike } from "@/lib/ssrf";
import type { UpstreamPaidTool, UpstreamServerJson } from "@/db/schema";
import { REGISTRY_PAID_TOOLS_META } from "@agora-mcp/protocol";
import { agoraListingMeta, type AgoraListingMeta } from "./agora-meta";
import { registryPaidTools } from "./paid-tool-names";
import { readJsonBody } from "./read-json";
import { httpUrl, plainText, visibleText } from "./text";
import { site } from "@/lib/site";

export const PAGE_SIZE = 100;
/** The most entries one page may carry (the official registry's limit is 100; a page past this is refused whole). */
const MAX_PAGE_ENTRIES = 1000;
const OFFICIAL = "io.modelcontextprotocol.registry/official";
/** lib/listings/presenters/server-json.ts AGORA_META_KEY (not imported: that module brings every presenter). */
const AGORA_META_KEY = `${site.registryNamespace}/listing`;
/** The transports a remote server can be checked over (stdio packages are not remote). */
const REMOTE_TYPES = new Set(["streamable-http", "sse"]);

const text = (max: number) => z.string().trim().max(max);
const serverJson = z.object({
  // Invisible characters are taken out before the name is compared with any other (lib/ingest/text.ts).
  name: text(200).transform(visibleText).pipe(z.string().trim().min(1)),
  title: text(200).optional(),
  // Long enough for any real description (the schema's is 100); a longer one is cut, not refused.
  description: z.string().optional().default(""),
  version: text(100).optional(),
  websiteUrl: text(2000).optional(),
  repository: z
    .object({ url: text(2000).optional() })
    .loose()
    .optional(),
  packages: z.array(z.unknown()).max(100).optional().catch(undefined),
  remotes: z
    .array(z.object({ type: z.string(), url: z.string() }).loose())
    .max(20)
    .optional(),
  // The registry's earlier shape (still in some entries): transports keyed by type.
  transports: z.record(z.string(), z.object({ url: z.string() }).loose()).optional(),
  _meta: z.record(z.string(), z.unknown()).optional().catch(undefined),
});
const officialMeta = z
  .object({
    status: z.enum(["active", "deprecated", "deleted"]).catch("active"),
    publishedAt: z.iso.datetime({ offset: true }).optional().catch(undefined),
    updatedAt: z.iso.datetime({ offset: true }).optional().catch(undefined),
    isLatest: z.boolean().optional(),
  })
  .loose();
const entrySchema = z
  .object({ server: z.unknown(), _meta: z.record(z.string(), z.unknown()).optional().catch(undefined) })
  .loose();
const pageSchema = z.object({
  servers: z.array(z.unknown()).max(MAX_PAGE_ENTRIES),
  metadata: z
    .object({ nextCursor: z.string().max(2000).nullish() })
    .loose()
    .optional(),
});

export type RegistryServer = {
  name: string;
  /** What the upstream said of the entry beyond Agora's fields, served again as given (lib/listings/presenters/server-json.ts). */
  upstreamServer: UpstreamServerJson;
  /** When the upstream first published it (never later than now). */
  publishedAt: Date | null;
  title: string | null;
  description: string;
  version: string | null;
  websiteUrl: string | null;
  repositoryUrl: string | null;
  status: "active" | "deprecated" | "deleted";
  updatedAt: Date | null;
  isLatest: boolean;
  remotes: { type: string; url: string }[];
  /** What another Agora says of the listing (null from any other registry). */
  agora: AgoraListingMeta | null;
  /** The tools the entry's `_meta` names as paid (lib/ingest/paid-tool-names.ts); empty when it names none. */
  paidTools: UpstreamPaidTool[];
  /** Markup was taken out of the title or description. */
  htmlStripped: boolean;
  /** Bidi or zero-width characters were taken out of the name, title or description. */
  invisibleStripped: boolean;
};

/** An entry that was skipped: its position on the page (0-based) and why. */
type MalformedEntry = { position: number; reason: string };
export type RegistryPage = {
  servers: RegistryServer[];
  received: number;
  malformed: MalformedEntry[];
  nextCursor: string | null;
};

/** The first problem zod found, as a short reason: "server.name: Invalid input: expected string, received number". */
function reasonOf(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0]!;
  const at = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
  return `${at}: ${issue.message}`.slice(0, 200);
}

function remotesOf(s: z.infer<typeof serverJson>) {
  const declared = [
    ...(s.remotes ?? []),
    ...Object.entries(s.transports ?? {}).map(([type, t]) => ({ type, url: t.url })),
  ];
  const remotes = declared.flatMap((r) => {
    const url = httpUrl(r.url);
    return REMOTE_TYPES.has(r.type) && url ? [{ type: r.type, url }] : [];
  });
  return [...new Map(remotes.map((r) => [r.url, r])).values()];
}

/** A package as server.json defines one (registryType, identifier, transport): a package that is not one is left out. */
const packageSchema = z
  .object({
    registryType: z.string().min(1).max(100),
    identifier: z.string().min(1).max(2000),
    transport: z.object({ type: z.string() }).loose(),
  })
  .loose();
const repositorySchema = z
  .object({
    url: z.string().max(2000),
    source: z.string().max(100),
    id: z.string().max(200).optional(),
    subfolder: z.string().max(500).optional(),
  })
  .loose();
/** The one `_meta` key server.json defines, an object when present. */
const PUBLISHER_META = "io.modelcontextprotocol.registry/publisher-provided";
/** Upstream `_meta` kept per entry (the official registry caps publisher metadata near 4 KB; past this it is dropped). */
const UPSTREAM_META_MAX_BYTES = 8192;

/** A date upstream, never later than now: a clock ahead (or a lie) must not date an entry in the future. */
function notFuture(iso: string | undefined, now: Date): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return date.getTime() > now.getTime() ? now : date;
}

/** The upstream's server.json fields Agora serves again as given, and its own `_meta` entries (never Agora's). */
function upstreamServerOf(s: z.infer<typeof serverJson>, websiteUrl: string | null): UpstreamServerJson {
  const packages = (s.packages ?? []).filter((p) => packageSchema.safeParse(p).success);
  const repository = repositorySchema.safeParse(s.repository);
  const { [AGORA_META_KEY]: _agora, [REGISTRY_PAID_TOOLS_META]: _tools, ...meta } = s._meta ?? {};
  const publisher = meta[PUBLISHER_META];
  if (publisher !== undefined && (typeof publisher !== "object" || publisher === null || Array.isArray(publisher)))
    delete meta[PUBLISHER_META];
  const keepMeta = Object.keys(meta).length > 0 && Buffer.byteLength(JSON.stringify(meta)) <= UPSTREAM_META_MAX_BYTES;
  return {
    ...(s.version ? { version: s.version } : {}),
    ...(packages.length ? { packages } : {}),
    ...(repository.success && httpUrl(repository.data.url) ? { repository: repository.data } : {}),
    ...(websiteUrl ? { websiteUrl } : {}),
    ...(keepMeta ? { _meta: meta } : {}),
  };
}

/** A name as compared with others: trailing slashes are no part of it. */
function normalName(name: string): string {
  return name.replace(/\/+$/, "");
}

export function toServer(raw: unknown, now = new Date()): RegistryServer | { reason: string } {
  const entry = entrySchema.safeParse(raw);
  if (!entry.success)
    return {
      reason: typeof raw === "object" && raw !== null ? reasonOf(entry.error, "") : "the entry is not an object",
    };
  if (typeof entry.data.server !== "object" || entry.data.server === null)
    return { reason: "the entry has no server object" };
  const parsed = serverJson.safeParse(entry.data.server);
  if (!parsed.success) return { reason: reasonOf(parsed.error, "server") };
  const s = { ...parsed.data, name: normalName(parsed.data.name) };
  if (!s.name) return { reason: "server.name: the name is only slashes" };
  const meta = officialMeta.safeParse(entry.data._meta?.[OFFICIAL] ?? {});
  const official = meta.success
    ? meta.data
    : { status: "active" as const, publishedAt: undefined, updatedAt: undefined, isLatest: undefined };
  const agora = agoraListingMeta(s._meta, official.publishedAt);
  const title = plainText(s.title ?? "", 200);
  const description = plainText(agora?.description ?? s.description, 2000);
  // Another Agora names its own page as the website of a listing that gave none: that is no website of the server's.
  const websiteUrl = agora && httpUrl(s.websiteUrl) === agora.detailUrl ? null : httpUrl(s.websiteUrl);
  const published = notFuture(official.publishedAt, now);
  return {
    name: s.name,
    upstreamServer: upstreamServerOf(s, websiteUrl),
    publishedAt: published ?? agora?.publishedAt ?? null,
    title: title.text || null,
    description: description.text,
    htmlStripped: title.stripped || description.stripped,
    invisibleStripped:
      title.invisible ||
      description.invisible ||
      parsed.data.name !== (entry.data.server as { name: string }).name.trim(),
    version: s.version ?? null,
    websiteUrl,
    repositoryUrl: httpUrl(s.repository?.url),
    status: official.status,
    updatedAt: notFuture(official.updatedAt, now),
    // Without the registry's own metadata (another aggregator, an old mirror) an entry counts as latest.
    isLatest: official.isLatest ?? true,
    remotes: remotesOf(s),
    agora,
    paidTools: registryPaidTools(s._meta),
  };
}

export function pageUrl(baseUrl: string, cursor: string | null, since: Date | null, limit = PAGE_SIZE): string {
  const url = new URL(`${baseUrl}/v0.1/servers`);
  url.searchParams.set("limit", String(limit));
  if (cursor) url.searchParams.set("cursor", cursor);
  if (since) url.searchParams.set("updated_since", since.toISOString());
  return url.toString();
}

/** One page; throws on a transport failure or an answer that is not the list shape (the caller retries). */
export async function fetchRegistryPage(fetch: FetchLike, url: string): Promise<RegistryPage> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`the registry answered HTTP ${res.status}`);
  const page = pageSchema.safeParse(await readJsonBody(res, "the registry"));
  if (!page.success) throw new Error(`the registry's answer is not a server list (${reasonOf(page.error, "")})`);
  const out: RegistryPage = {
    servers: [],
    received: page.data.servers.length,
    malformed: [],
    nextCursor: page.data.metadata?.nextCursor || null,
  };
  const now = new Date();
  // A loop, not recursion or a spread: a page of any size up to the cap is read in constant stack.
  for (let position = 0; position < page.data.servers.length; position++) {
    const server = toServer(page.data.servers[position], now);
    if ("reason" in server) out.malformed.push({ position, reason: server.reason });
    else out.servers.push(server);
  }
  return out;
}
