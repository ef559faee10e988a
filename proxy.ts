// The design's middleware (Next 16 calls it proxy): refuses cross-site state changes to route handlers,
// and sends the plain catalogue to its cached route.
import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { configuredOrigin } from "@/lib/public-origin";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// Auth.js (mounted at /api/nextauth) checks its own CSRF token on sign-in and sign-out and state/PKCE on
// provider callbacks; the MCP endpoint is a public, unauthenticated protocol endpoint. The product's JSON
// auth API (/api/auth/*) is not exempt: a browser may only call it from this site.
const EXEMPT_PATHS = ["/api/nextauth", "/api/mcp"];

export function proxy(request: NextRequest) {
  if (request.nextUrl.pathname === "/marketplace") return catalogueRewrite(request);
  if (SAFE_METHODS.has(request.method)) return NextResponse.next();
  const { pathname } = request.nextUrl;
  // Whole path segments: /api/mcp is exempt, /api/mcp-agents is not.
  if (EXEMPT_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return NextResponse.next();
  // Programs authenticate with a bearer token, which a browser never attaches on its own.
  if (request.headers.get("authorization")?.toLowerCase().startsWith("bearer ")) return NextResponse.next();

  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return forbidden();
  const origin = request.headers.get("origin");
  if (origin && !isOwnOrigin(request, origin)) return forbidden();
  return NextResponse.next();
}

// The unfiltered catalogue (optionally ?page=N) is served from a cached route; filtered views are not.
function catalogueRewrite(request: NextRequest) {
  const params = [...request.nextUrl.searchParams.keys()];
  const page = request.nextUrl.searchParams.get("page");
  const plain = params.length === 0 || (params.length === 1 && page !== null && /^[1-9]\d{0,5}$/.test(page));
  if (!plain) return NextResponse.next();
  return NextResponse.rewrite(new URL(`/catalogue-page/${page ?? "1"}`, request.url));
}

// Production compares against the configured public origin only (env.ts requires one); a forwarded Host
// header is the client's to write, so it never widens what counts as this site.
function isOwnOrigin(request: NextRequest, origin: string): boolean {
  const configured = configuredOrigin();
  if (env().NODE_ENV === "production" && configured) return origin === configured;
  return origin === configured || origin === request.nextUrl.origin;
}

function forbidden() {
  return NextResponse.json({ message: "Cross-site requests are not allowed." }, { status: 403 });
}

export const config = { matcher: ["/api/:path*", "/marketplace"] };
