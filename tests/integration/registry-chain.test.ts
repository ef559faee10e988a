// Three Agoras in a chain (A reads a registry in the official format, B reads A, C reads B), each one its own
// database behind its own /v0.1 route handlers on loopback, with a real paid MCP server as the entry's remote. An
// entry created, edited, deprecated and deleted at the top reaches the bottom within one run of each, field by field:
// name, text, version (and every version seen), packages, repository, website, publishedAt, the publisher's _meta,
// status and a moving updatedAt; the origin is named at every hop and each Agora is named as an Agora.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listAgents } from "@/app/api/mcp-agents/route";
import { GET as discoveryResources } from "@/app/discovery/resources/route";
import { ingestSources } from "@/db/schema";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { setDatabase } from "@/lib/database";
import { runIngest } from "@/lib/ingest/run-ingest";
import { serveRegistryApi, type AgoraRegistryApi } from "../support/agora-registry-api";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { fixture, startFixtureRegistry, type FixtureRegistry, type RegistryEntry } from "../support/fixture-registry";
import { officialSchema } from "../support/official-registry";
import { startPricedServer } from "../support/priced-server";

const OFFICIAL = "io.modelcontextprotocol.registry/official";
const OURS = "dev.agora-mcp/listing";
const PUBLISHER = "io.modelcontextprotocol.registry/publisher-provided";
const NAME = "io.github.blueskylineassets/agent-observability";

type Hop = { kind: string; name: string; url: string };
type Entry = {
  server: Record<string, unknown> & {
    name: string;
    version: string;
    description: string;
    _meta: Record<string, unknown> & { [OURS]: { description: string; origin: Hop; registries: Hop[] } };
  };
  _meta: { [OFFICIAL]: { status: string; publishedAt: string; updatedAt: string; statusChangedAt: string } };
};

async function get<T>(url: string): Promise<T> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return (await res.json()) as T;
}

/** The entry as an Agora's /v0.1 serves it to an incremental reader (deleted ones included), validated against the official schemas. */
async function entryOn(api: AgoraRegistryApi, since = "2000-01-01T00:00:00Z"): Promise<Entry | undefined> {
  const body = await get<{ servers: Entry[] }>(
    `${api.url}/v0.1/servers?updated_since=${encodeURIComponent(since)}&search=${encodeURIComponent(NAME)}`,
  );
  officialSchema.assertServerList(body);
  const found = body.servers.filter((e) => e.server.name === NAME);
  expect(found.length, `${api.url} lists ${NAME} once`).toBeLessThanOrEqual(1);
  return found[0];
}

describe.each(drivers())("a chain of three Agoras on %s", (driver) => {
  let paid: Awaited<ReturnType<typeof startPricedServer>>;
  let upstream: FixtureRegistry;
  const dbs: TestConnection[] = [];
  const apis: AgoraRegistryApi[] = [];
  let entry: RegistryEntry;
  const published = "2025-12-01T10:00:00.000Z";

  /** One run of each Agora, top to bottom. */
  async function runChain() {
    const sources = [upstream.url, apis[0]!.url, apis[1]!.url];
    for (const [i, url] of sources.entries()) {
      const summary = await runIngest(dbs[i]!.db, parseIngestSources(`mcp-registry=${url}`), {
        allowPrivateHosts: true,
        retryDelayMs: 10,
        timeoutMs: 20_000,
      });
      expect(summary.sources[0], `run ${"ABC"[i]}`).toMatchObject({ completed: true, errors: [] });
    }
  }

  /** Every Agora serves the fields the upstream gave, as it gave them. */
  async function expectSameEverywhere(status: string) {
    const top = entry.server as Record<string, unknown>;
    const served = await Promise.all(apis.map((api) => entryOn(api)));
    for (const [i, e] of served.entries()) {
      const at = `Agora ${"ABC"[i]}`;
      expect(e, at).toBeDefined();
      officialSchema.assertServerJson(e!.server);
      expect(e!.server.version, at).toBe(top.version);
      expect(e!.server.packages, at).toEqual(top.packages);
      expect(e!.server.repository, at).toEqual(top.repository);
      expect(e!.server.websiteUrl, at).toBe(top.websiteUrl);
      expect(e!.server._meta[PUBLISHER], at).toEqual((top._meta as Record<string, unknown>)[PUBLISHER]);
      expect(e!.server._meta[OURS].description, at).toBe(top.description);
      expect(e!._meta[OFFICIAL].status, at).toBe(status);
      expect(e!._meta[OFFICIAL].publishedAt, at).toBe(entry.publishedAt);
      expect(new Date(e!._meta[OFFICIAL].updatedAt).getTime(), at).toBeLessThanOrEqual(Date.now());
      // Where it was first published, by name and URL, and every Agora on the way named as an Agora.
      expect(e!.server._meta[OURS].origin, at).toMatchObject({
        kind: "mcp-registry",
        name: "MCP Registry",
        url: upstream.url,
      });
      expect(
        e!.server._meta[OURS].registries.map((h) => [h.kind, h.url]),
        at,
      ).toEqual([["mcp-registry", upstream.url], ...apis.slice(0, i).map((api) => ["agora", api.url])]);
    }
    // The bottom says the same as the middle, field by field (its own listing's ids, slugs and dates aside).
    expect(served[2]!.server.description).toBe(served[1]!.server.description);
    expect(served[2]!.server.title).toBe(served[1]!.server.title);
    return served;
  }

  beforeAll(async () => {
    paid = await startPricedServer({
      items: [{ name: "trace", amount: 0.02 }],
      wallet: "0x6666666666666666666666666666666666666666",
      extraTool: false,
    });
    const real = fixture<Record<string, unknown>>("io.github.blueskylineassets.agent-observability.json");
    entry = {
      server: {
        ...real,
        version: "0.0.1-seed",
        websiteUrl: "https://agentobs.example/docs",
        remotes: [{ type: "streamable-http", url: paid.url }],
        _meta: { [PUBLISHER]: { tool: "publisher-cli", version: "1.2.3" } },
      },
      updatedAt: published,
      publishedAt: published,
    };
    upstream = await startFixtureRegistry([entry], 10);
    for (let i = 0; i < 3; i++) dbs.push(await openTestDatabase(driver));
    for (const db of dbs) apis.push(await serveRegistryApi(db));
  });
  afterAll(async () => {
    await Promise.all([...apis.map((a) => a.close()), upstream?.close(), paid?.close()]);
    await Promise.all(dbs.map((d) => d.close()));
  });

  it("an entry created at the top reaches the bottom with the same fields, and its origin named", async () => {
    await runChain();
    const [, , c] = await expectSameEverywhere("active");
    expect(c!.server.name).toBe(NAME);
  });

  it("an edit (a new version, new text) reaches the bottom, and every version seen is listed", async () => {
    const before = await entryOn(apis[2]!);
    entry.server = {
      ...(entry.server as object),
      version: "0.0.2",
      description: "Logging and monitoring for AI agents, now with cost alerts.",
    };
    entry.updatedAt = "2026-01-02T00:00:00.000Z";
    entry.publishedAt = entry.updatedAt;
    await runChain();
    const [, , c] = await expectSameEverywhere("active");
    expect(new Date(c!._meta[OFFICIAL].updatedAt).getTime()).toBeGreaterThan(
      new Date(before!._meta[OFFICIAL].updatedAt).getTime(),
    );
    for (const api of apis) {
      const versions = await get<{ servers: Entry[] }>(`${api.url}/v0.1/servers/${encodeURIComponent(NAME)}/versions`);
      officialSchema.assertServerList(versions);
      expect(versions.servers.map((s) => s.server.version).sort(), api.url).toEqual(["0.0.1-seed", "0.0.2"]);
      const old = await get<Entry>(`${api.url}/v0.1/servers/${encodeURIComponent(NAME)}/versions/0.0.1-seed`);
      expect(old.server.version).toBe("0.0.1-seed");
    }
  });

  it("a deprecation reaches the bottom with a new updatedAt", async () => {
    const before = await entryOn(apis[2]!);
    entry.status = "deprecated";
    entry.updatedAt = "2026-01-03T00:00:00.000Z";
    await runChain();
    const [, , c] = await expectSameEverywhere("deprecated");
    expect(new Date(c!._meta[OFFICIAL].updatedAt).getTime()).toBeGreaterThan(
      new Date(before!._meta[OFFICIAL].updatedAt).getTime(),
    );
    expect(new Date(c!._meta[OFFICIAL].statusChangedAt).getTime()).toBeGreaterThan(
      new Date(before!._meta[OFFICIAL].updatedAt).getTime(),
    );
  });

  it("a deletion reaches the bottom as status deleted, and the entry leaves /api and discovery there", async () => {
    const before = await entryOn(apis[2]!);
    entry.status = "deleted";
    entry.updatedAt = "2026-01-04T00:00:00.000Z";
    await runChain();
    for (const [i, api] of apis.entries()) {
      const e = await entryOn(api, before!._meta[OFFICIAL].updatedAt);
      expect(e?._meta[OFFICIAL].status, `Agora ${"ABC"[i]}`).toBe("deleted");
      const plain = await get<{ servers: Entry[] }>(`${api.url}/v0.1/servers?search=${encodeURIComponent(NAME)}`);
      expect(plain.servers, `Agora ${"ABC"[i]}`).toEqual([]);
    }
    setDatabase(dbs[2]!);
    const agents = await (await listAgents(new Request("http://localhost/api/mcp-agents?limit=50"))).text();
    expect(agents).not.toContain(paid.url);
    const discovery = await (
      await discoveryResources(new Request("http://localhost/discovery/resources?limit=100"))
    ).text();
    expect(discovery).not.toContain(paid.url);
  });

  it("an older page saying active again never brings the deleted entry back", async () => {
    entry.status = "active";
    entry.updatedAt = "2026-01-03T12:00:00.000Z";
    // A reads from the start again (no high-water mark), and the upstream answers the stale entry, as an
    // out-of-order mirror would.
    await dbs[0]!.db.update(ingestSources).set({ highWaterMark: null });
    const summary = await runIngest(dbs[0]!.db, parseIngestSources(`mcp-registry=${upstream.url}`), {
      allowPrivateHosts: true,
      retryDelayMs: 10,
      timeoutMs: 20_000,
    });
    expect(summary.sources[0]).toMatchObject({ completed: true });
    expect((await entryOn(apis[0]!))?._meta[OFFICIAL].status).toBe("deleted");
  });
});
