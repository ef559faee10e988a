// Issue 43: each request reads the catalogue version once, and never takes it from the client. The marketplace page
// gets the proxy's reading on a request header (lib/listings/search/version-header.ts); the JSON API and the MCP
// search read it themselves. A version a client sends must never key the search cache: with a stale version as the
// key, a listing approved since would stay out of the results for the cache's lifetime.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { catalogueVersion } from "@/db/queries/listings";
import { setDatabase } from "@/lib/database";
import { insertListing } from "@/lib/listings/write";
import { CATALOGUE_VERSION_HEADER } from "@/lib/listings/search/version-header";
import { GET as list } from "@/app/api/mcp-agents/route";
import { proxy } from "@/proxy";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

describe.each(drivers())("a catalogue version the client sends, on %s", (driver) => {
  let conn: TestConnection;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    await insertListing(conn.db, { name: "Early Quokka Tool", description: "Listed before the search ran.", categories: ["Data"], price: 0.01, serverUrl: "https://early-quokka.example.com/mcp", status: "approved" });
  });
  afterAll(async () => conn?.close());

  it("does not key GET /api/mcp-agents' search cache: a listing approved since is found at once", async () => {
    const forged = await catalogueVersion(conn.db);
    const search = async () => {
      const res = await list(new Request("http://localhost/api/mcp-agents?q=quokka&limit=20", { headers: { [CATALOGUE_VERSION_HEADER]: forged } }));
      expect(res.status).toBe(200);
      return ((await res.json()) as { name: string }[]).map((a) => a.name).sort();
    };
    expect(await search()).toEqual(["Early Quokka Tool"]);
    await insertListing(conn.db, { name: "Late Quokka Tool", description: "Approved after the first search.", categories: ["Data"], price: 0.01, serverUrl: "https://late-quokka.example.com/mcp", status: "approved" });
    expect(await catalogueVersion(conn.db)).not.toBe(forged);
    // Within the cache's lifetime (SEARCH_CACHE_TTL_SECONDS, 10 by default; a page of up to 50 is kept), the same header again.
    expect(await search()).toEqual(["Early Quokka Tool", "Late Quokka Tool"]);
  });

  it("the proxy hands the marketplace page its own reading, not the client's", async () => {
    const request = new NextRequest("http://localhost:3000/marketplace?q=quokka", { headers: { [CATALOGUE_VERSION_HEADER]: "999999", accept: "text/html" } });
    const response = await proxy(request);
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBeTruthy();
    expect(response.headers.get("x-middleware-override-headers")!.split(",")).toContain(CATALOGUE_VERSION_HEADER);
    expect(response.headers.get(`x-middleware-request-${CATALOGUE_VERSION_HEADER}`)).toBe(await catalogueVersion(conn.db));
  });
});
