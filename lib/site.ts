// The product's names and links (lib/site-copy.ts) and this deployment's origin, read through lib/env.ts.
import { pageSettings } from "@/lib/env";

export { mainNav, site } from "@/lib/site-copy";

/** The origin when SITE_URL is unset (development; production requires SITE_URL or AUTH_URL). */
export const DEFAULT_SITE_URL = "http://localhost:3000";

/**
 * Absolute origin for canonical URLs, sitemaps, Open Graph, install lines and config blocks: SITE_URL as the server
 * was started with it. Pages prerendered by the build carry the build's and are rewritten to this one at start-up
 * (server/deployment-rewrite.mjs).
 */
export function siteUrl(): string {
  return (pageSettings().SITE_URL ?? DEFAULT_SITE_URL).replace(/\/$/, "");
}
