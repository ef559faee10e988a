// The sitemap index: one entry per sitemap file (app/sitemap.ts, split at 50,000 URLs), as search engines require
// past that size. Served at /sitemap.xml, where robots.txt points and crawlers look: proxy.ts rewrites that address
// here (app/sitemap.ts with generateSitemaps owns the /sitemap.xml route name, so no route file can take it).
import { getDb } from "@/lib/database";
import { sitemapIds, sitemapIndexXml } from "@/lib/listings/sitemap";
import { siteUrl } from "@/lib/site";

export const dynamic = "force-dynamic";

export async function GET() {
  const xml = sitemapIndexXml(siteUrl(), await sitemapIds(await getDb()));
  return new Response(xml, {
    headers: { "Content-Type": "application/xml", "Cache-Control": "public, max-age=0, must-revalidate" },
  });
}
