// Each request reads the catalogue version once, and never takes it from the client. The marketplace page
// gets the proxy's reading on a request header (lib/listings/search/version-header.ts); the JSON API and the MCP
// search read it themselves. A version a client sends must never key the search cache: with a stale version as the
// key, a listing approved since would stay out of the results for the cache's lifetime.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import type { SQL } from "drizzle-orm";
import { catalogueVersion } from "@/db/queries/listings";
import { setDatabase } from "@/lib/database";
import { insertListing } from "@/lib/listings/write";
import { CATALOGUE_VERSION_HEADER } from "@/lib/listings/search/version-header";
import { GET as list } from "@/app/api/mcp-agents/route";
import { POST as mcp } from "@/app/api/mcp/route";
import { proxy } from "@/proxy";
import type { Db } from "@/db/types";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

/** The real database, counting the statements that read the catalogue version (db/queries/listings.ts). */
function countingVersionReads(db: Db): { db: Db; reads: () => number } {
  let reads = 0;
  const text = (query: SQL) =>
    query.queryChunks
      .map((c) => (c && typeof c === "object" && "value" in c && Array.isArray(c.value) ? c.value.join("") : ""))
      .join("");
  const counting = new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== "execute" || typeof value !== "function") return value;
      return (query: SQL) => {
        if (text(query).includes("catalogue_version")) reads++;
        return (value as (q: SQL) => unknown).call(target, query);
      };
    },
  });
  return { db: counting, reads: () => reads };
}

describe.each(drivers())("a catalogue version the client sends, on %s", (driver) => {
  let conn: TestConnection;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    await insertListing(conn.db, {
      name: "Early Quokka Tool",
      description: "Listed before the search ran.",
      categories: ["Data"],
      price: 0.01,
      serverUrl: "https://early-quokka.example.com/mcp",
      status: "approved",
    });
  });
  afterAll(async () => conn?.close());

  it("does not key GET /api/mcp-agents' search cache: a listing approved since is found at once", async () => {
    const forged = await catalogueVersion(conn.db);
    const search = async () => {
      const res = await list(
        new Request("http://localhost/api/mcp-agents?q=quokka&limit=20", {
          headers: { [CATALOGUE_VERSION_HEADER]: forged },
        }),
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { name: string }[]).map((a) => a.name).sort();
    };
    expect(await search()).toEqual(["Early Quokka Tool"]);
    await insertListing(conn.db, {
      name: "Late Quokka Tool",
      description: "Approved after the first search.",
      categories: ["Data"],
      price: 0.01,
      serverUrl: "https://late-quokka.example.com/mcp",
      status: "approved",
    });
    expect(await catalogueVersion(conn.db)).not.toBe(forged);
    // Within the cache's lifetime (SEARCH_CACHE_TTL_SECONDS, 10 by default; a page of up to 50 is kept), the same header again.
    expect(await search()).toEqual(["Early Quokka Tool", "Late Quokka Tool"]);
  });

  it("does not key the MCP endpoint's search_servers either", async () => {
    const forged = await catalogueVersion(conn.db);
    let id = 0;
    const search = async () => {
      const params = {
        name: "search_servers",
        arguments: { query: "wombat", limit: 10 },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "version-test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      };
      const res = await mcp(
        new Request("http://localhost/api/mcp", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "search_servers",
            [CATALOGUE_VERSION_HEADER]: forged,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params }),
        }),
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { result: { structuredContent: { servers: { name: string }[] } } };
      return body.result.structuredContent.servers.map((s) => s.name).sort();
    };
    await insertListing(conn.db, {
      name: "Early Wombat Tool",
      description: "Listed before the search ran.",
      categories: ["Data"],
      price: 0.01,
      serverUrl: "https://early-wombat.example.com/mcp",
      status: "approved",
    });
    expect(await search()).toEqual(["Early Wombat Tool"]);
    await insertListing(conn.db, {
      name: "Late Wombat Tool",
      description: "Approved after the first search.",
      categories: ["Data"],
      price: 0.01,
      serverUrl: "https://late-wombat.example.com/mcp",
      status: "approved",
    });
    expect(await search()).toEqual(["Early Wombat Tool", "Late Wombat Tool"]);
  });

  it("GET /api/mcp-agents reads the version once per request, however the search is answered", async () => {
    const counted = countingVersionReads(conn.db);
    setDatabase({ ...conn, db: counted.db });
    try {
      for (const query of ["?q=quokka&limit=20", "?q=quokka&limit=20", "?q=tool&limit=5", "?limit=1000"]) {
        const before = counted.reads();
        expect((await list(new Request(`http://localhost/api/mcp-agents${query}`))).status).toBe(200);
        // A page too large to keep (limit over 50) skips the cache, and with it the version.
        expect(counted.reads() - before, query).toBe(query === "?limit=1000" ? 0 : 1);
      }
    } finally {
      setDatabase(conn);
    }
  });

  it("the proxy hands the marketplace page its own reading, not the client's", async () => {
    const request = new NextRequest("http://localhost:3000/marketplace?q=quokka", {
      headers: { [CATALOGUE_VERSION_HEADER]: "999999", accept: "text/html" },
    });
    const response = await proxy(request);
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBeTruthy();
    expect(response.headers.get("x-middleware-override-headers")!.split(",")).toContain(CATALOGUE_VERSION_HEADER);
    expect(response.headers.get(`x-middleware-request-${CATALOGUE_VERSION_HEADER}`)).toBe(
      await catalogueVersion(conn.db),
    );
  });
});
