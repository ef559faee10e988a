// Bad input: an upstream that fails in every way an upstream can. Each run logs and counts it,
// keeps going or stops cleanly with its high-water mark intact, and nothing already listed is lost or corrupted.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ingestedServers, ingestSources, listings } from "@/db/schema";
import { runIngest, type IngestOptions } from "@/lib/ingest/run-ingest";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { fixture, startFixtureRegistry, type FixtureRegistry } from "../support/fixture-registry";
import { startPricedServer } from "../support/priced-server";

const OFFICIAL = "io.modelcontextprotocol.registry/official";
const options: IngestOptions = { allowPrivateHosts: true, retryDelayMs: 10, timeoutMs: 20_000, sourceTimeoutMs: 1_000 };
const entry = (server: unknown, updatedAt = "2026-03-01T00:00:00Z") => ({
  server,
  _meta: { [OFFICIAL]: { status: "active", updatedAt, isLatest: true } },
});

describe.each(drivers())("bad upstream input on %s", (driver) => {
  let conn: TestConnection;
  let registry: FixtureRegistry;
  let paid: Awaited<ReturnType<typeof startPricedServer>>;
  let listedBefore: unknown;
  const HIGH_WATER = new Date("2026-02-01T00:00:00Z");

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    paid = await startPricedServer({
      items: [{ name: "answer", amount: 0.03 }],
      wallet: "0x5555555555555555555555555555555555555555",
      extraTool: false,
    });
    const server = {
      ...fixture("io.github.golfgolfgolf200.warppay402-server.json"),
      transports: undefined,
      remotes: [{ type: "streamable-http", url: paid.url }],
    };
    registry = await startFixtureRegistry([{ server, updatedAt: HIGH_WATER.toISOString() }]);
    const first = await runIngest(conn.db, sources(), options);
    expect(first.candidates.listed).toBe(1);
    listedBefore = await imported();
  });
  beforeEach(() => {
    registry.misbehave = null;
  });
  afterAll(async () => {
    registry.misbehave = null;
    await Promise.all([registry?.close(), paid?.close()]);
    await conn?.close();
  });

  const sources = () => parseIngestSources(`mcp-registry=${registry.url}`);
  const imported = () => conn.db.select().from(listings).where(eq(listings.source, "mcp-registry"));
  const state = async () => (await conn.db.select().from(ingestSources))[0]!;

  async function stopsCleanly(expectedError: RegExp, overrides: Partial<IngestOptions> = {}) {
    const run = (await runIngest(conn.db, sources(), { ...options, ...overrides })).sources[0]!;
    expect(run.completed).toBe(false);
    expect(run.errors).toEqual([expect.stringMatching(expectedError)]);
    const after = await state();
    expect(after.highWaterMark).toEqual(HIGH_WATER);
    expect(after.lastErrors).toEqual(run.errors);
    expect(await imported()).toEqual(listedBefore);
    return run;
  }

  it("a registry answering 500 (twice: the retry too) stops the run with the reason", async () => {
    registry.misbehave = (_req, res) => res.writeHead(500).end("oops");
    await stopsCleanly(/^page 1: the registry answered HTTP 500$/);
  });

  it("a registry that never answers is given up on at the deadline", async () => {
    registry.misbehave = () => {}; // holds the request open
    await stopsCleanly(/^page 1: .*No complete answer within 1000 ms/);
  });

  it("invalid JSON is named as such", async () => {
    registry.misbehave = (_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end('{"servers": [ {"server": ');
    await stopsCleanly(/^page 1: the registry's answer is not valid JSON$/);
  });

  it("a 50 MB page is broken off at the size cap, never read whole", async () => {
    const chunk = Buffer.alloc(1024 * 1024, " ");
    registry.misbehave = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }); // no length: the cap must hold while streaming
      res.write('{"servers": [');
      let sent = 0;
      const more = () => {
        while (sent < 50 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        if (!res.destroyed) res.end("]}");
      };
      more();
    };
    // Time enough to stream past the cap on a loaded machine: the size, not the clock, must stop it.
    await stopsCleanly(/^page 1: the registry's answer was refused: Response larger than 8 MB$/, {
      sourceTimeoutMs: 15_000,
    });
  });

  it("a cursor loop is caught, and the next run starts over from the high-water mark", async () => {
    registry.misbehave = (_req, res, url) => {
      const next = url.searchParams.get("cursor") === "b" ? "a" : "b";
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ servers: [], metadata: { nextCursor: next } }));
    };
    await stopsCleanly(/cursor "a" a second time \(a cursor loop\)$|cursor "b" a second time \(a cursor loop\)$/);
    expect((await state()).cursor).toBeNull();
  });

  it("10,000 entries with the same name: the first is kept, the rest counted and skipped", async () => {
    const base = fixture<Record<string, unknown>>("io.decisionrules.mcp-server.json");
    registry.misbehave = (_req, res, url) => {
      const page = Number(url.searchParams.get("cursor") ?? "0");
      const servers = Array.from({ length: 100 }, (_, i) =>
        entry(
          { ...base, remotes: [{ type: "sse", url: `http://127.0.0.1:9/same-${page * 100 + i}` }] },
          "2026-02-02T00:00:00Z",
        ),
      );
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ servers, metadata: page < 99 ? { nextCursor: String(page + 1) } : {} }));
    };
    const run = (await runIngest(conn.db, sources(), { ...options, limit: 0 })).sources[0]!;
    expect(run).toMatchObject({ completed: true, errors: [] });
    expect(run.counts).toMatchObject({ pages: 100, seen: 10_000, duplicateName: 9_999, candidates: 1 });
    const named = await conn.db
      .select()
      .from(ingestedServers)
      .where(eq(ingestedServers.upstreamName, "io.decisionrules/mcp-server"));
    expect(named).toHaveLength(1);
    expect(await imported()).toEqual(listedBefore);
  });

  it("a remote on a private address is refused by the check, counted, and never listed", async () => {
    const server = {
      ...fixture("io.decisionrules.mcp-server.json"),
      name: "com.example/private",
      remotes: [{ type: "streamable-http", url: "http://10.1.2.3/mcp" }],
    };
    const loopback = {
      ...fixture("io.decisionrules.mcp-server.json"),
      name: "com.example/loopback",
      remotes: [{ type: "streamable-http", url: `${paid.url}?via=loopback` }],
    };
    registry.misbehave = (_req, res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(
          JSON.stringify({ servers: [entry(server, "2026-03-02T00:00:00Z"), entry(loopback, "2026-03-02T00:00:00Z")] }),
        );
    // As in production: the source is the operator's (allowed), the servers it names are not.
    const summary = await runIngest(conn.db, sources(), {
      ...options,
      allowPrivateHosts: false,
      sourceAllowPrivateHosts: true,
    });
    // Three: these two, and the loopback candidate the same-name test left due.
    expect(summary.candidates).toMatchObject({ refused: 3, listed: 0 });
    const refused = await conn.db.select().from(ingestedServers).where(eq(ingestedServers.outcome, "refused"));
    expect(refused.map((r) => r.remoteUrl)).toEqual(
      expect.arrayContaining([`${paid.url}?via=loopback`, "http://10.1.2.3/mcp"]),
    );
    expect(await conn.db.select().from(listings).where(eq(listings.serverUrl, "http://10.1.2.3/mcp"))).toEqual([]);
  });

  it("HTML in an entry's text is taken out and counted; the listing shows plain text", async () => {
    const server = {
      ...fixture("io.decisionrules.mcp-server.json"),
      name: "com.example/markup",
      title: "<b>Bold</b> Answers",
      description: 'Answers <script>alert("x")</script>questions<img src=x onerror="alert(1)">.',
      remotes: [{ type: "streamable-http", url: `${paid.url}?via=markup` }],
    };
    registry.misbehave = (_req, res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ servers: [entry(server, "2026-03-03T00:00:00Z")] }));
    const summary = await runIngest(conn.db, sources(), options);
    expect(summary.sources[0]!.counts.htmlStripped).toBe(1);
    const [row] = await conn.db
      .select()
      .from(listings)
      .where(eq(listings.serverUrl, `${paid.url}?via=markup`));
    expect(row).toMatchObject({ name: "Bold Answers", description: 'Answers alert("x") questions .' });
    expect(row!.description).not.toMatch(/[<>]/);
    expect((await state()).highWaterMark).toEqual(new Date("2026-03-03T00:00:00Z"));
  });
});
