import type { MetadataRoute } from "next";
import { listSitemapListings } from "@/lib/listings/catalogue";
import { siteUrl } from "@/lib/site";

// Rendered per request: it reads the database, which does not exist at build time.
export const dynamic = "force-dynamic";

const STATIC_PAGES = [
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
// The sitemap protocol allows 50,000 URLs per file; past that, split with generateSitemaps.
const MAX_LISTINGS = 49_000;

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const base = siteUrl();
  const listings = await listSitemapListings(MAX_LISTINGS);
  return [
    ...STATIC_PAGES.map((path) => ({ url: `${base}${path === "/" ? "" : path}`, changeFrequency: "weekly" as const, priority: path === "/" ? 1 : 0.7 })),
    ...listings.map((l) => ({ url: `${base}/marketplace/${l.slug}`, lastModified: l.updatedAt, changeFrequency: "daily" as const, priority: 0.6 })),
  ];
}
