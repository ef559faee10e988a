// Sitemaps split at the protocol's 50,000 URLs, named by a sitemap index at /sitemap.xml (where robots.txt
// points). A real count: past 50,000 approved listings there are two files, the first holds exactly 50,000 URLs, and
// together they name every approved listing once and nothing else. Through the routes Next serves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { GET as sitemapIndex } from "@/app/sitemap-index.xml/route";
import sitemap, { generateSitemaps } from "@/app/sitemap";
import robots from "@/app/robots";
import { rowsOf } from "@/db/rows";
import { setDatabase } from "@/lib/database";
import { SITEMAP_URL_LIMIT } from "@/lib/listings/sitemap";
import { seedSampleCatalogue } from "@/lib/sample-catalogue/seed";
import { siteUrl } from "@/lib/site";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

// Enough approved listings that pages + listings pass one file by a few hundred.
const EXTRA = 50_000;

describe.each(drivers())("sitemaps on %s", (driver) => {
  let conn: TestConnection;
  let approved: string[];

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    await seedSampleCatalogue(conn.db);
    // Plain rows in one statement (the search vocabulary trigger is not what this test is about, and costs minutes).
    await conn.db.execute(sql`alter table listings disable trigger listings_search_words`);
    await conn.db.execute(sql`
      insert into listings (slug, name, description, categories, price, server_url, status, search_text)
      select 'sitemap-' || i, 'Sitemap ' || i, 'A listing for the sitemap test.', array['Data'], 0,
             'https://sitemap-' || i || '.test.invalid/mcp', (case when i % 100 = 99 then 'pending' else 'approved' end)::review_status, 'sitemap'
      from generate_series(0, ${EXTRA + 600}) as i`);
    await conn.db.execute(sql`alter table listings enable trigger listings_search_words`);
    approved = rowsOf<{ slug: string }>(
      await conn.db.execute(sql`select slug from listings where status = 'approved'`),
    ).map((r) => r.slug);
    setDatabase(conn);
  }, 240_000);
  afterAll(async () => conn?.close());

  it("the production limit is the protocol's 50,000", () => {
    expect(SITEMAP_URL_LIMIT).toBe(50_000);
    expect(approved.length).toBeGreaterThan(SITEMAP_URL_LIMIT);
  });

  it("splits past 50,000 URLs: the first file full, together every approved listing once", async () => {
    const ids = await generateSitemaps();
    expect(ids).toEqual([{ id: 0 }, { id: 1 }]);
    const files = await Promise.all(ids.map(({ id }) => sitemap({ id: Promise.resolve(String(id)) })));
    expect(files[0]).toHaveLength(50_000);
    const urls = files.flat().map((e) => e.url);
    expect(new Set(urls).size).toBe(urls.length);
    const listed = urls.filter((u) => u.includes("/marketplace/")).map((u) => u.slice(u.lastIndexOf("/") + 1));
    expect(listed.sort()).toEqual([...approved].sort());
    expect(urls).toContain(`${siteUrl()}/terms-of-service`);
    expect(files[1]!.length).toBe(urls.length - 50_000);
  }, 60_000);

  it("/sitemap.xml is an index of the files, and robots.txt points at it", async () => {
    const response = await sitemapIndex();
    expect(response.headers.get("content-type")).toBe("application/xml");
    const xml = await response.text();
    expect(xml).toContain("<sitemapindex");
    expect([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      `${siteUrl()}/sitemap/0.xml`,
      `${siteUrl()}/sitemap/1.xml`,
    ]);
    expect(robots().sitemap).toBe(`${siteUrl()}/sitemap.xml`);
  });
});
