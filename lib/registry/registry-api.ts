// The official MCP Registry's read API over the approved catalogue (GET /v0.1/servers …, /v0 alias).
import { NextResponse } from "next/server";
import { z } from "zod";
import { findRegistryView, listRegistryViews } from "@/lib/listings/lookup";
import { versionsOfListing } from "@/db/queries/upstream-versions";
import type { RegistryView } from "@/lib/listings/registry-view";
import { site } from "@/lib/site";
import { ApiError, errorBody, errorResponse } from "@/lib/errors";
import { cachedJson } from "@/lib/http/cached-json";
import { route } from "@/lib/http/route";
import { registryListQuerySchema } from "@/lib/validations/registry";
import { SERVER_VERSION, toServerResponse } from "@/lib/listings/presenters/server-json";

const CORS = { "Access-Control-Allow-Origin": "*" };

/** Opaque keyset cursor: the slug of the last server on the previous page. */
export function encodeRegistryCursor(slug: string): string {
  return Buffer.from(`s:${slug}`).toString("base64url");
}

export function decodeRegistryCursor(cursor: string): string | null {
  const m = /^s:([a-z0-9][a-z0-9-]{0,99})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return m ? m[1]! : null;
}

/** The version a listing is served at now: its upstream's, or Agora's one version for a listing submitted here. */
const currentVersion = (listing: RegistryView) => listing.registry.upstreamServer?.version ?? SERVER_VERSION;

// The registry's OpenAPI (and x402's Bazaar clients) name the message `error`; this project's clients read
// `message`. Both are sent, with the code and CORS, so a browser-based agent can read the refusal too. A failure
// the route did not raise itself (the database down, a bug) answers as every other route's does.
export function registryFailure(error: ApiError, thrown: unknown): Response {
  if (!(thrown instanceof ApiError)) return errorResponse(error);
  return NextResponse.json(
    { error: error.message, ...errorBody(error) },
    { status: error.status, headers: { ...CORS, ...error.headers } },
  );
}

export const listServers = route(
  { name: "GET /v0.1/servers", query: registryListQuerySchema, failure: registryFailure },
  async ({ query: { cursor, limit, search, updated_since, include_deleted, version, source }, db, request }) => {
    let afterSlug: string | undefined;
    if (cursor) {
      afterSlug = decodeRegistryCursor(cursor) ?? undefined;
      if (!afterSlug) throw new ApiError(400, "cursor is not valid.", { code: "invalid_cursor" });
    }

    // One more than the page tells whether another follows. Every listing is served at its latest version: a
    // `version` other than "latest" keeps the listings whose current version it is.
    const updatedSince = updated_since ? new Date(updated_since) : undefined;
    const rows = await listRegistryViews(db, {
      q: search,
      namespace: site.registryNamespace,
      source,
      updatedSince,
      includeDeleted: include_deleted,
      afterSlug,
      limit: limit + 1,
    });
    const read = rows.slice(0, limit);
    const page = read.filter((v) => !version || version === "latest" || currentVersion(v) === version);
    const metadata: { count: number; nextCursor?: string } = { count: page.length };
    if (rows.length > limit) metadata.nextCursor = encodeRegistryCursor(read.at(-1)!.slug);
    return cachedJson(request, { servers: page.map((v) => toServerResponse(v, v.registry)), metadata }, CORS);
  },
);

/** `byName`: `key` is a registry name ("namespace/name"); otherwise a bare listing id or slug. */
type ServerPath = { key: string; byName: boolean; version: string | null; listVersions: boolean };

/**
 * The path after /servers/: `{name}`, `{name}/versions` or `{name}/versions/{version}`, where {name} is the
 * server's name as /v0.1/servers lists it, URL-encoded (as the OpenAPI asks) or not. A bare listing id or slug
 * also names a server, as the first v0 API's `/v0/servers/{id}` did.
 */
export function parseServerPath(segments: string[]): ServerPath | null {
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const parts = segments.map(decode).join("/").split("/");
  if (parts.length === 1) return parts[0] ? { key: parts[0], byName: false, version: null, listVersions: false } : null;
  // A name is looked up as it is (the listing's stored name, or "<namespace>/<slug>"), never parsed into a slug.
  if (!parts[0] || !parts[1]) return null;
  const named = { key: `${parts[0]}/${parts[1]}`, byName: true };
  const rest = parts.slice(2);
  if (rest.length === 0) return { ...named, version: null, listVersions: false };
  if (rest[0] !== "versions" || rest.length > 2) return null;
  return rest.length === 1
    ? { ...named, version: null, listVersions: true }
    : { ...named, version: rest[1]!, listVersions: false };
}

// The segments after /servers/ (a name, "versions", a version: four at most, the name unencoded), read into the
// server they name; an address that names none, or a key longer than any listing's, is not there.
const serverPathParams = z
  .object({ path: z.array(z.string().max(300)).min(1).max(4) })
  .transform(({ path: segments }, context) => {
    const path = parseServerPath(segments);
    if (path && path.key.length <= 200) return { path };
    context.addIssue({ code: "custom", message: "names no server" });
    return z.NEVER;
  });

export const getServerAt = route(
  {
    name: "GET /v0.1/servers/[...path]",
    params: { schema: serverPathParams, notFound: "Server not found" },
    failure: registryFailure,
  },
  async ({ params: { path }, db, request }) => {
    const listing = await findRegistryView(db, path.key, { byName: path.byName });
    if (!listing) throw new ApiError(404, "Server not found");
    const latest = toServerResponse(listing, listing.registry);
    if (path.listVersions) {
      const seen = await versionsOfListing(db, listing.id);
      const current = currentVersion(listing);
      const older = seen
        .filter((v) => v.version !== current)
        .map((v) =>
          toServerResponse(listing, listing.registry, {
            version: v.version,
            publishedAt: v.publishedAt?.toISOString() ?? null,
            server: { ...v.server, version: v.version },
            isLatest: false,
          }),
        );
      const servers = [latest, ...older];
      return cachedJson(request, { servers, metadata: { count: servers.length } }, CORS);
    }
    if (path.version === null || path.version === "latest" || path.version === currentVersion(listing))
      return cachedJson(request, latest, CORS);
    const older = (await versionsOfListing(db, listing.id)).find((v) => v.version === path.version);
    if (!older) throw new ApiError(404, "Server version not found");
    return cachedJson(
      request,
      toServerResponse(listing, listing.registry, {
        version: older.version,
        publishedAt: older.publishedAt?.toISOString() ?? null,
        server: { ...older.server, version: older.version },
        isLatest: false,
      }),
      CORS,
    );
  },
);
