// The design's middleware (Next 16 calls it proxy): refuses cross-site state changes to route handlers,
// and sends the plain catalogue to its cached route.
import { NextResponse, type NextRequest } from "next/server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// Auth.js checks its own CSRF token; the MCP endpoint is a public, unauthenticated protocol endpoint.
const EXEMPT_PREFIXES = ["/api/auth/callback/", "/api/auth/signin", "/api/auth/signout", "/api/mcp"];

export function proxy(request: NextRequest) {
  if (request.nextUrl.pathname === "/marketplace") return catalogueRewrite(request);
  if (SAFE_METHODS.has(request.method)) return NextResponse.next();
  const { pathname } = request.nextUrl;
  if (EXEMPT_PREFIXES.some((p) => pathname.startsWith(p))) return NextResponse.next();
  // Programs authenticate with a bearer token, which a browser never attaches on its own.
  if (request.headers.get("authorization")?.toLowerCase().startsWith("bearer ")) return NextResponse.next();

  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return forbidden();
  const origin = request.headers.get("origin");
  if (origin && origin !== request.nextUrl.origin && origin !== expectedOrigin(request)) return forbidden();
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

function expectedOrigin(request: NextRequest): string {
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  const proto = request.headers.get("x-forwarded-proto") ?? request.nextUrl.protocol.replace(":", "");
  return `${proto}://${host}`;
}

function forbidden() {
  return NextResponse.json({ message: "Cross-site requests are not allowed." }, { status: 403 });
}

export const config = { matcher: ["/api/:path*", "/marketplace"] };
