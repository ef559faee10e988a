import type { MetadataRoute } from "next";
import { getDb } from "@/lib/database";
import { sitemapFile, sitemapIds } from "@/lib/listings/sitemap";
import { siteUrl } from "@/lib/site";

// Rendered per request: it reads the database, which does not exist at build time.
export const dynamic = "force-dynamic";

// The sitemap files, /sitemap/<id>.xml, at most 50,000 URLs each (lib/listings/sitemap.ts); /sitemap.xml is their
// index (app/sitemap-index.xml/route.ts, rewritten there by proxy.ts). Next also calls this at build time for static
// params: there are none then.
export async function generateSitemaps() {
  if (process.env.NEXT_PHASE === "phase-production-build") return [];
  return sitemapIds(await getDb());
}

export default async function sitemap({ id }: { id: Promise<string> }): Promise<MetadataRoute.Sitemap> {
  return sitemapFile(await getDb(), Number(await id), siteUrl());
}
