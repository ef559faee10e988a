// Shared-cache (CDN) rules for the public read surfaces. Anonymous GETs of the marketplace, detail pages and the
// public JSON APIs may be kept by a shared cache for a few seconds and served stale while it revalidates; a
// request that carries a session cookie is answered `private` (never stored by a shared cache), whatever the URL.
// These pages do not read the session on the server (the header asks /api/nextauth/session from the browser), so the
// anonymous copy is what a signed-in person sees too; Vary stays what Next sets (RSC headers, Accept-Encoding):
// `Vary: Cookie` would split a CDN's cache per visitor for nothing.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isSessionCookieName } from "@/lib/session-cookie";

/** Seconds a shared cache may serve a page or API answer without asking again, and serve it stale after. */
const SHARED_MAX_AGE = 10;
const STALE_WHILE_REVALIDATE = 60;

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

// Request headers that change what a page URL answers: Next's RSC payload for client navigations instead of HTML.
const VARIANT_HEADERS = [
  "rsc",
  "next-router-state-tree",
  "next-router-prefetch",
  "next-router-segment-prefetch",
  "next-url",
];
/** How long a rendered page's validator may stay the same at most: relative times and check windows move on. */
const VALIDATOR_SECONDS = 60;

/**
 * A weak validator for a page rendered per request (the marketplace with a search or filter): its content is a
 * function of the deployment, the URL and variant headers, the catalogue's version (bumped by every write to
 * listings, checks and drift) and the time, so those are hashed, with the time in minutes. Next makes ETags
 * only for pages it holds whole (the cached catalogue pages, detail pages).
 */
export function renderedPageEtag(
  request: { url: string; headers: Headers },
  deployment: string,
  catalogueVersion: string,
  now = Date.now(),
): string {
  const variant = VARIANT_HEADERS.map((h) => request.headers.get(h) ?? "").join("\n");
  const minute = Math.floor(now / (VALIDATOR_SECONDS * 1000));
  const url = new URL(request.url);
  const digest = createHash("sha1")
    .update([deployment, catalogueVersion, minute, url.pathname + url.search, variant].join("\n"))
    .digest("base64url");
  return `W/"p-${digest}"`;
}

/** Whether If-None-Match names this validator (or any). */
export function matchesEtag(request: { headers: Headers }, etag: string): boolean {
  const held = request.headers.get("if-none-match");
  return Boolean(held && held.split(",").some((t) => t.trim() === etag || t.trim() === "*"));
}

let deployment: string | undefined;
/** The build being served (.next/BUILD_ID), or this process's start when it cannot be read. */
export function deploymentId(): string {
  if (deployment === undefined) {
    try {
      deployment = fs.readFileSync(path.join(process.cwd(), ".next", "BUILD_ID"), "utf8").trim();
    } catch {
      deployment = `started-${Date.now()}`;
    }
  }
  return deployment;
}
