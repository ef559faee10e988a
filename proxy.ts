// The design's middleware (Next 16 calls it proxy): refuses cross-site state changes to route handlers and
// server actions, and sends the plain catalogue to its cached route.
import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { configuredOrigin } from "@/lib/public-origin";
import { isActionRequest, screenActionRequest } from "@/lib/http/action-request";
import { databaseDown, getDb } from "@/lib/database";
import { deploymentId, matchesEtag, readCacheControl, renderedPageEtag } from "@/lib/http/cache-headers";
import { plainNextResponse } from "@/lib/http/plain-answer";
import { catalogueVersion, withCatalogueVersion } from "@/lib/listings/search/version-header";
import { findListingSlug } from "@/lib/listings/lookup";
import { isListingId } from "@/lib/listings/keys";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// Auth.js (mounted at /api/nextauth) checks its own CSRF token on sign-in and sign-out and state/PKCE on
// provider callbacks; the MCP endpoint is a public, unauthenticated protocol endpoint. The product's JSON
// auth API (/api/auth/*) is not exempt: a browser may only call it from this site.
const EXEMPT_PATHS = ["/api/nextauth", "/api/mcp"];
const HEALTH_PATHS = new Set(["/api/health", "/api/ready"]);

export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  // Next decodes route parameters itself and answers a malformed escape (`/marketplace/%E0%A4%A`) with a 500.
  if (!decodable(pathname)) return badAddress(request);
  // Health and readiness answer for themselves, also while the database is down (that is what they report).
  if (HEALTH_PATHS.has(pathname)) return NextResponse.next();
  if (databaseDown() && needsDatabase(request)) return unavailable(request);
  // Every state change is judged first, before any path's own routing: the catalogue's branch below once answered
  // POSTs to /marketplace itself, so its server actions skipped the origin check and the body screening.
  if (!SAFE_METHODS.has(request.method)) {
    const refusal = await refuseStateChange(request);
    if (refusal) return refusal;
  }
  if (pathname === "/marketplace") return marketplace(request);
  // The sitemap index (app/sitemap-index.xml/route.ts) answers at the address crawlers and robots.txt use.
  if (pathname === "/sitemap.xml") return NextResponse.rewrite(new URL("/sitemap-index.xml", request.url));
  if (SAFE_METHODS.has(request.method))
    return MARKETPLACE_PAGE.test(pathname) ? listingPage(request) : NextResponse.next();
  return isActionRequest(request.method, request.headers)
    ? NextResponse.next({ request: { headers: withJudgedHost(request) } })
    : NextResponse.next();
}

/**
 * The request's headers with X-Forwarded-Host set to the host of the origin judged above (when it carries one).
 * Next compares a server action's Origin with X-Forwarded-Host or Host and throws, with a logged stack, when
 * neither matches: a forged X-Forwarded-Host, or a Host that is not the public one behind a proxy, would turn an
 * accepted request into a 500. The origin was already checked against this site's; Next need not judge again.
 */
function withJudgedHost(request: NextRequest): Headers {
  const headers = new Headers(request.headers);
  const origin = request.headers.get("origin");
  // Page actions only: the API's exempt paths (Auth.js) read X-Forwarded-Host for themselves and were not judged.
  const judged = !request.nextUrl.pathname.startsWith("/api/") && isActionRequest(request.method, request.headers);
  if (judged && origin && URL.canParse(origin)) headers.set("x-forwarded-host", new URL(origin).host);
  return headers;
}

/**
 * A server action (a POST to a page) or a JSON API write, judged by one rule against the configured origin before
 * Next's own action check (which believes X-Forwarded-Host); null when it may go on.
 */
async function refuseStateChange(request: NextRequest): Promise<NextResponse | null> {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith("/api/")) {
    // Whole path segments: /api/mcp is exempt, /api/mcp-agents is not.
    if (EXEMPT_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return null;
    // Programs authenticate with a bearer token, which a browser never attaches on its own.
    if (request.headers.get("authorization")?.toLowerCase().startsWith("bearer ")) return null;
  }
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return forbidden(request);
  const origin = request.headers.get("origin");
  if (origin && !isOwnOrigin(request, origin)) return forbidden(request);
  if (!pathname.startsWith("/api/") && isActionRequest(request.method, request.headers)) {
    const refusal = await screenActionRequest(request);
    if (refusal) return plainNextResponse(request, refusal);
  }
  return null;
}

// Marketplace pages: public to shared caches when anonymous, private with a session cookie (lib/http/cache-headers.ts).
// Next keeps a Cache-Control set here instead of its own; the read APIs set theirs in lib/http/cached-json.ts.
const MARKETPLACE_PAGE = /^\/marketplace\/[^/]+$/;

/**
 * A listing's page. Named by its id, it is a permanent redirect to its slug's page, answered here: Next wrote the
 * Location of a page's own redirect twice (set while rendering, then appended again from the render's headers),
 * and the page never needs rendering for it. An unknown id, or no answer from the database, goes on to the page.
 */
async function listingPage(request: NextRequest): Promise<NextResponse> {
  const key = decodeURIComponent(request.nextUrl.pathname.slice("/marketplace/".length));
  if (isListingId(key) && !databaseDown()) {
    const slug = await getDb()
      .then((db) => findListingSlug(db, key))
      .catch(() => null);
    // Absolute, on the public origin: Next parses a proxy's Location against nothing, and the request's own URL
    // names the address the server is bound to.
    if (slug) {
      const location = new URL(
        `/marketplace/${encodeURIComponent(slug)}`,
        configuredOrigin() ?? request.nextUrl.origin,
      );
      return new NextResponse(null, {
        status: 308,
        headers: { Location: location.toString(), "Cache-Control": readCacheControl(request) },
      });
    }
  }
  return withReadCache(request, NextResponse.next());
}

function withReadCache(request: NextRequest, response: NextResponse): NextResponse {
  if (request.method === "GET" || request.method === "HEAD")
    response.headers.set("Cache-Control", readCacheControl(request));
  return response;
}

// The unfiltered catalogue (optionally ?page=N) is served from a cached route (Next gives it an ETag); filtered
// views render per request, with a validator of their own so a repeat is a 304 without rendering.
async function marketplace(request: NextRequest) {
  if (isPlainCatalogue(request)) {
    const target = new URL(`/catalogue-page/${request.nextUrl.searchParams.get("page") ?? "1"}`, request.url);
    const rewrite = isActionRequest(request.method, request.headers)
      ? NextResponse.rewrite(target, { request: { headers: withJudgedHost(request) } })
      : NextResponse.rewrite(target);
    return withReadCache(request, rewrite);
  }
  // The page is handed the version read here (lib/listings/search/version-header.ts), or none: never the client's.
  const passOn = (version: string | null) =>
    NextResponse.next({ request: { headers: withCatalogueVersion(withJudgedHost(request), version) } });
  if (request.method !== "GET" && request.method !== "HEAD") return passOn(null);
  // Without the catalogue's version there is no honest validator: the page renders as it would without one.
  const version = await getDb()
    .then(catalogueVersion)
    .catch(() => null);
  if (version === null) return withReadCache(request, passOn(null));
  const etag = renderedPageEtag(request, deploymentId(), version);
  const headers = { ETag: etag, "Cache-Control": readCacheControl(request) };
  if (matchesEtag(request, etag)) return new NextResponse(null, { status: 304, headers });
  const response = passOn(version);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

function isPlainCatalogue(request: NextRequest): boolean {
  const params = [...request.nextUrl.searchParams.keys()];
  const page = request.nextUrl.searchParams.get("page");
  return params.length === 0 || (params.length === 1 && page !== null && /^[1-9]\d{0,5}$/.test(page));
}

// Production compares against the configured public origin only (env.ts requires one); a forwarded Host
// header is the client's to write, so it never widens what counts as this site.
function isOwnOrigin(request: NextRequest, origin: string): boolean {
  const configured = configuredOrigin();
  if (env().NODE_ENV === "production" && configured) return origin === configured;
  return origin === configured || origin === request.nextUrl.origin;
}

// Served from the route cache, static or from files (the package tarballs) without the database: they stay up
// while it restarts.
const CACHED_PAGES =
  /^\/($|marketplace(\/[^/]+)?$|catalogue-page\/|guides\/|how-it-works|getting-started|privacy-policy|terms-of-service|mcpsummit|og\/|downloads\/|robots\.txt|sitemap\.xml)/;

function needsDatabase(request: NextRequest): boolean {
  if (!SAFE_METHODS.has(request.method)) return true; // server actions and API writes
  const { pathname } = request.nextUrl;
  if (pathname === "/marketplace") return !isPlainCatalogue(request);
  return !CACHED_PAGES.test(pathname);
}

/** The database is restarting: a clear, quick 503 (JSON for programs, a short page for browsers). */
function unavailable(request: NextRequest) {
  const message = "Agora is briefly unavailable while its database restarts. Please try again in a few seconds.";
  return plainNextResponse(request, { code: "unavailable", message, retry: true, headers: { "Retry-After": "5" } });
}

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function badAddress(request: NextRequest) {
  return plainNextResponse(request, {
    code: "invalid_address",
    message: "The address contains malformed percent-encoding.",
  });
}

function forbidden(request: NextRequest) {
  return plainNextResponse(request, { code: "cross_site_request", message: "Cross-site requests are not allowed." });
}

// Every page and API path (the database gate above); reads of static files and Next's assets skip the proxy. A
// request that could be a server action or a write (it carries a body's Content-Type or a Next-Action header) is
// matched whatever its path: a page's path may end in ".png" too (/marketplace/x.png is the detail route), and no
// spelling of a path may carry an action past the screening.
export const config = {
  matcher: [
    "/((?!_next/static|_next/image|favicon.ico|icon.svg|.*\\.(?:png|jpg|jpeg|svg|webp|ico|woff2?)$).*)",
    { source: "/:path*", has: [{ type: "header", key: "content-type" }] },
    { source: "/:path*", has: [{ type: "header", key: "next-action" }] },
  ],
};
