// What ingestion keeps of an upstream entry to serve it again: the fields server.json defines as the upstream gave
// them, the upstream's own _meta entries (never Agora's), and dates never later than now; a name's trailing slashes
// are no part of it.
import { describe, expect, it } from "vitest";
import { toServer, type RegistryServer } from "@/lib/ingest/registry-client";
import { fixture } from "../support/fixture-registry";

const OFFICIAL = "io.modelcontextprotocol.registry/official";
const PUBLISHER = "io.modelcontextprotocol.registry/publisher-provided";

function read(
  server: Record<string, unknown>,
  official: Record<string, unknown> = {},
  now = new Date("2026-06-01T00:00:00Z"),
): RegistryServer {
  const out = toServer(
    {
      server: { remotes: [{ type: "streamable-http", url: "https://paid.example/mcp" }], ...server },
      _meta: { [OFFICIAL]: official },
    },
    now,
  );
  if ("reason" in out) throw new Error(out.reason);
  return out;
}

describe("an upstream entry's own fields", () => {
  it("keeps version, packages, repository, website and the publisher's _meta as given", () => {
    const real = fixture<Record<string, unknown>>("io.github.blueskylineassets.agent-observability.json");
    const server = read(
      {
        ...real,
        websiteUrl: "https://agentobs.example/",
        _meta: {
          [PUBLISHER]: { tool: "cli" },
          "dev.agora-mcp/listing": { description: "x" },
          "com.example/extra": { a: 1 },
        },
      },
      { publishedAt: "2025-11-01T00:00:00Z", updatedAt: "2025-11-02T00:00:00Z" },
    );
    expect(server.upstreamServer).toEqual({
      version: "1.5.0",
      packages: real.packages,
      repository: real.repository,
      websiteUrl: "https://agentobs.example/",
      _meta: { [PUBLISHER]: { tool: "cli" }, "com.example/extra": { a: 1 } },
    });
    expect(server.publishedAt).toEqual(new Date("2025-11-01T00:00:00Z"));
  });

  it("leaves out packages and a repository that are not server.json's, and a publisher _meta that is not an object", () => {
    const server = read({
      name: "io.github.x/y",
      version: "0.0.1-seed",
      packages: [
        { registry_name: "npm", name: "@x/y" },
        { registryType: "npm", identifier: "y", transport: { type: "stdio" } },
      ],
      repository: { url: "https://github.com/x/y" },
      _meta: { [PUBLISHER]: "not an object" },
    });
    expect(server.upstreamServer).toEqual({
      version: "0.0.1-seed",
      packages: [{ registryType: "npm", identifier: "y", transport: { type: "stdio" } }],
    });
  });

  it("reads dates in the future as now, and a name without its trailing slashes", () => {
    const now = new Date("2026-06-01T00:00:00Z");
    const server = read(
      { name: "io.github.x/y//", version: "1.0.0" },
      { publishedAt: "2099-01-01T00:00:00Z", updatedAt: "2099-01-01T00:00:00Z" },
      now,
    );
    expect(server.name).toBe("io.github.x/y");
    expect(server.updatedAt).toEqual(now);
    expect(server.publishedAt).toEqual(now);
    expect(server.invisibleStripped).toBe(false);
  });
});
