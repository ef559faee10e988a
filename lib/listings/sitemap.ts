// The sitemaps: every public page and every approved listing, split into files of at most SITEMAP_URL_LIMIT URLs
// (the sitemap protocol's 50,000), named by /sitemap.xml, a sitemap index (app/sitemap-index.xml/route.ts, which
// proxy.ts serves at /sitemap.xml). The files are Next's generateSitemaps routes (app/sitemap.ts: /sitemap/0.xml, …).
// The pages come first, then the listings in id order: file k holds entries k·limit to (k+1)·limit − 1 of that sequence.
import type { MetadataRoute } from "next";
import { countApproved, listSitemapEntries } from "@/db/queries/listings";
import type { Db } from "@/db/types";

export const SITEMAP_URL_LIMIT = 50_000;

const SITEMAP_PAGES = [
  "/",
  "/marketplace",
  "/how-it-works",
  "/getting-started",
  "/guides/setup-and-usage",
  "/guides/agents",
  "/guides/local-testing-guide",
  "/guides/aws-step-by-step",
  "/submit",
  "/mcpsummit",
  "/terms-of-service",
  "/privacy-policy",
];

/** The ids of the sitemap files: enough for the pages and every approved listing (at least one). */
export async function sitemapIds(db: Db, limit = SITEMAP_URL_LIMIT): Promise<{ id: number }[]> {
  const files = Math.max(1, Math.ceil((SITEMAP_PAGES.length + (await countApproved(db))) / limit));
  return Array.from({ length: files }, (_, id) => ({ id }));
}

/** Sitemap file `id`: its share of the pages (the first file holds them all) and of the listings. */
export async function sitemapFile(
  db: Db,
  id: number,
  base: string,
  limit = SITEMAP_URL_LIMIT,
): Promise<MetadataRoute.Sitemap> {
  const first = id * limit;
  const pages = SITEMAP_PAGES.slice(first, first + limit);
  const offset = Math.max(0, first - SITEMAP_PAGES.length);
  const listings = await listSitemapEntries(db, { limit: limit - pages.length, offset });
  return [
    ...pages.map((path) => ({
      url: `${base}${path === "/" ? "" : path}`,
      changeFrequency: "weekly" as const,
      priority: path === "/" ? 1 : 0.7,
    })),
    ...listings.map((l) => ({
      url: `${base}/marketplace/${l.slug}`,
      lastModified: l.updatedAt,
      changeFrequency: "daily" as const,
      priority: 0.6,
    })),
  ];
}

/** The sitemap index naming each file. */
export function sitemapIndexXml(base: string, ids: { id: number }[]): string {
  const entries = ids.map(({ id }) => `<sitemap>\n<loc>${base}/sitemap/${id}.xml</loc>\n</sitemap>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n`;
}
