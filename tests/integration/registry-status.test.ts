// Status travels through /v0.1 as the official registry's OpenAPI says: a listing removed, rejected after approval or
// deleted upstream is served with status "deleted" and a new updatedAt whenever updated_since is given (and with
// include_deleted=true), never otherwise; a deprecation moves updatedAt; `search` is a substring of server.name. A
// deleted listing leaves /api and discovery at once.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listV01 } from "@/app/v0.1/servers/route";
import { GET as listAgents } from "@/app/api/mcp-agents/route";
import { listings, type ListingRow } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { insertListing } from "@/lib/listings/write";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { officialSchema } from "../support/official-registry";

const OFFICIAL = "io.modelcontextprotocol.registry/official";
type Entry = {
  server: { name: string };
  _meta: Record<string, { status: string; statusChangedAt: string; updatedAt: string; publishedAt: string }>;
};

async function list(query: string): Promise<Entry[]> {
  const res = await listV01(new Request(`http://localhost/v0.1/servers${query}`));
  expect(res.status, query).toBe(200);
  const body = await res.json();
  officialSchema.assertServerList(body);
  return (body as { servers: Entry[] }).servers;
}
const names = (entries: Entry[]) => entries.map((e) => e.server.name);
const pause = () => new Promise((r) => setTimeout(r, 15));

describe.each(drivers())("registry status and name search on %s", (driver) => {
  let conn: TestConnection;
  const made: Record<string, ListingRow> = {};

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    const base = {
      description: "Paid weather answers for agents.",
      categories: ["Weather"],
      websiteUrl: null,
      price: 0.01,
      status: "approved" as const,
    };
    for (const slug of ["weather-now", "removed-later", "rejected-later", "deprecated-later", "deleted-upstream"]) {
      made[slug] = await insertListing(conn.db, {
        ...base,
        name: `Listing ${slug}`,
        slug,
        serverUrl: `https://${slug}.example/mcp`,
      });
    }
    await insertListing(conn.db, {
      ...base,
      name: "Never approved",
      slug: "never-approved",
      serverUrl: "https://never.example/mcp",
      status: "pending",
    });
    await insertListing(conn.db, {
      ...base,
      name: "Cognee",
      slug: "cognee",
      serverUrl: "https://cognee.example/mcp",
      source: "mcp-registry",
      upstreamName: "io.github.topoteretes/cognee",
      registryName: "io.github.topoteretes/cognee",
      upstreamUrl: "https://registry.example/v0.1/servers/io.github.topoteretes%2Fcognee/versions/latest",
      upstreamStatus: "active",
    });
  });
  afterAll(async () => conn?.close());

  it("search is a substring of server.name, whatever the case, and only of the name", async () => {
    expect(names(await list("?search=io.github.topoteretes/cognee"))).toEqual(["io.github.topoteretes/cognee"]);
    expect(names(await list("?search=TOPOTERETES"))).toEqual(["io.github.topoteretes/cognee"]);
    expect(names(await list("?search=dev.agora-mcp"))).toHaveLength(5);
    expect(names(await list("?search=dev.agora-mcp/weather-now"))).toEqual(["dev.agora-mcp/weather-now"]);
    // Words of the description are not the name.
    expect(await list("?search=agents")).toEqual([]);
    // LIKE's wildcards are text.
    expect(await list("?search=%25")).toEqual([]);
  });

  it("a listing that leaves the catalogue is served as deleted, with a new updatedAt, under updated_since and include_deleted only", async () => {
    const before = new Date();
    await pause();
    await conn.db
      .update(listings)
      .set({ status: "rejected", rejectionReason: "Removed by an admin." })
      .where(eq(listings.slug, "removed-later"));
    await conn.db.update(listings).set({ status: "pending" }).where(eq(listings.slug, "rejected-later"));
    await conn.db
      .update(listings)
      .set({ status: "rejected", upstreamStatus: "deleted" })
      .where(eq(listings.slug, "deleted-upstream"));
    await conn.db.update(listings).set({ upstreamStatus: "deprecated" }).where(eq(listings.slug, "deprecated-later"));

    const plain = names(await list("?limit=100"));
    expect(plain).not.toContain("dev.agora-mcp/removed-later");
    expect(plain).not.toContain("dev.agora-mcp/deleted-upstream");
    expect(plain).toContain("dev.agora-mcp/deprecated-later");

    const changed = await list(`?updated_since=${encodeURIComponent(before.toISOString())}`);
    const byName = new Map(changed.map((e) => [e.server.name, e._meta[OFFICIAL]!]));
    expect([...byName.keys()].sort()).toEqual([
      "dev.agora-mcp/deleted-upstream",
      "dev.agora-mcp/deprecated-later",
      "dev.agora-mcp/rejected-later",
      "dev.agora-mcp/removed-later",
    ]);
    for (const [name, meta] of byName) {
      expect(meta.status, name).toBe(name.endsWith("deprecated-later") ? "deprecated" : "deleted");
      expect(new Date(meta.updatedAt).getTime(), name).toBeGreaterThan(before.getTime());
      expect(new Date(meta.statusChangedAt).getTime(), name).toBeGreaterThan(before.getTime());
      expect(new Date(meta.updatedAt).getTime(), name).toBeLessThanOrEqual(Date.now());
      // First published when it was listed, not when it changed.
      expect(new Date(meta.publishedAt).getTime(), name).toBeLessThan(before.getTime());
    }

    const withDeleted = await list("?include_deleted=true&limit=100");
    expect(names(withDeleted)).toEqual(
      expect.arrayContaining([
        "dev.agora-mcp/removed-later",
        "dev.agora-mcp/deleted-upstream",
        "dev.agora-mcp/weather-now",
      ]),
    );
    // Never approved: never published, so never deleted either.
    expect(names(withDeleted)).not.toContain("dev.agora-mcp/never-approved");
    expect(names(await list("?include_deleted=false&limit=100"))).not.toContain("dev.agora-mcp/removed-later");
  });

  it("a deleted listing is gone from /api at once", async () => {
    const res = await listAgents(new Request("http://localhost/api/mcp-agents?limit=50"));
    const body = (await res.json()) as { servers?: { slug: string }[]; data?: { slug: string }[] };
    const slugs = JSON.stringify(body);
    expect(slugs).toContain("weather-now");
    expect(slugs).not.toContain("removed-later");
    expect(slugs).not.toContain("deleted-upstream");
  });

  it("refuses include_deleted that is not a boolean", async () => {
    const res = await listV01(new Request("http://localhost/v0.1/servers?include_deleted=yes"));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "include_deleted must be true or false." });
  });
});
