// Shared-cache (CDN) rules for the public read surfaces. Anonymous GETs of the marketplace, detail pages and the
// public JSON APIs may be kept by a shared cache for a few seconds and served stale while it revalidates; a
// request that carries a session cookie is answered `private` (never stored by a shared cache), whatever the URL.
// These pages do not read the session on the server (the header asks /api/nextauth/session from the browser), so the
// anonymous copy is what a signed-in person sees too; Vary stays what Next sets (RSC headers, Accept-Encoding):
// `Vary: Cookie` would split a CDN's cache per visitor for nothing.
import { isSessionCookieName } from "@/lib/auth/session-cookie";

/** Seconds a shared cache may serve a page or API answer without asking again, and serve it stale after. */
export const SHARED_MAX_AGE = 10;
export const STALE_WHILE_REVALIDATE = 60;

export const PUBLIC_CACHE = `public, max-age=0, s-maxage=${SHARED_MAX_AGE}, stale-while-revalidate=${STALE_WHILE_REVALIDATE}`;
export const PRIVATE_CACHE = "private, no-cache";

/** Whether the request carries an Auth.js session cookie (signed in, or a session that lapsed). */
export function hasSessionCookie(cookieHeader: string | null): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(";").some((part) => isSessionCookieName(part.split("=")[0]!.trim()));
}

/** The Cache-Control for a GET of a public read path: private when it carries a session cookie. */
export function readCacheControl(request: { headers: Headers }): string {
  return hasSessionCookie(request.headers.get("cookie")) ? PRIVATE_CACHE : PUBLIC_CACHE;
}
