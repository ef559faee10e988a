// A local MCP Registry for ingestion tests: serves `GET /v0.1/servers` in the official response shape
// (`servers[].server`, `servers[]._meta["io.modelcontextprotocol.registry/official"]`, `metadata.nextCursor`),
// paged by cursor, filtered by `updated_since` (which, as upstream, then includes deleted entries), from entries
// built on the real server.json documents in ../shared/fixtures/registry/. A page can be told to fail.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Copies of the real documents in ../shared/fixtures/registry/ (with that folder's README), kept in the repository.
export const FIXTURES = fileURLToPath(new URL("../fixtures/registry", import.meta.url));
const OFFICIAL = "io.modelcontextprotocol.registry/official";

export function fixture<T = Record<string, unknown>>(file: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, file), "utf8")) as T;
}

type LegacyServer = {
  name: string;
  description: string;
  repository?: unknown;
  version_detail: { version: string; release_date: string; is_latest: boolean };
  packages?: unknown[];
  remotes?: { transport_type: string; url: string }[];
};

/**
 * Every real document in the fixtures folder as the registry lists it today: the current-shape seed (its older
 * version of a name not latest), the three single documents as published, and the 2025-shape seed converted the way
 * the registry migrated it (`version_detail` → `version`, `remotes[].transport_type` → `type`, packages kept).
 */
export function allFixtureEntries(): RegistryEntry[] {
  const current = fixture<Record<string, unknown>[]>("seed-current-shape.json");
  const later = (i: number) => current.slice(i + 1).some((s) => s.name === current[i]!.name);
  const singles = [
    "io.decisionrules.mcp-server.json",
    "io.github.blueskylineassets.agent-observability.json",
    "io.github.golfgolfgolf200.warppay402-server.json",
  ];
  const legacy = fixture<LegacyServer[]>("seed-2025-05-16-legacy-shape.json").map(
    ({ version_detail, remotes, ...server }) => ({
      server: {
        ...server,
        version: version_detail.version,
        ...(remotes ? { remotes: remotes.map((r) => ({ type: r.transport_type, url: r.url })) } : {}),
      },
      updatedAt: version_detail.release_date,
      isLatest: version_detail.is_latest,
    }),
  );
  return [
    ...current.map((server, i) => ({ server, updatedAt: "2025-12-11T00:00:00Z", isLatest: !later(i) })),
    ...singles.map((file) => ({ server: fixture(file), updatedAt: "2026-01-01T00:00:00Z" })),
    ...legacy,
  ];
}

export type RegistryEntry = {
  server: unknown;
  status?: "active" | "deprecated" | "deleted";
  updatedAt: string;
  /** When this version was published (default: updatedAt). */
  publishedAt?: string;
  isLatest?: boolean;
};

export type FixtureRegistry = {
  url: string;
  entries: RegistryEntry[];
  /** Request URLs in the order received. */
  requests: string[];
  /** Answer the page with this cursor (null: the first) with a 500, this many times. */
  failPage: (cursor: string | null, times: number) => void;
  /** Misbehave: when set, answers every request itself (a bad-input test's upstream); clear it to behave again. */
  misbehave: ((req: http.IncomingMessage, res: http.ServerResponse, url: URL) => void) | null;
  close: () => Promise<void>;
};

export async function startFixtureRegistry(entries: RegistryEntry[], pageSize = 2, port = 0): Promise<FixtureRegistry> {
  const requests: string[] = [];
  const failures = new Map<string, number>();
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://registry.local");
    if (handle.misbehave) return handle.misbehave(req, res, url);
    if (url.pathname !== "/v0.1/servers") return res.writeHead(404).end();
    const cursor = url.searchParams.get("cursor");
    const left = failures.get(cursor ?? "") ?? 0;
    if (left > 0) {
      failures.set(cursor ?? "", left - 1);
      return res.writeHead(500, { "content-type": "application/json" }).end('{"error":"try again"}');
    }
    const since = url.searchParams.get("updated_since");
    const visible = entries.filter((e) => (since ? e.updatedAt >= since : e.status !== "deleted"));
    const start = cursor ? Number(cursor) : 0;
    const page = visible.slice(start, start + pageSize);
    const next = start + pageSize < visible.length ? String(start + pageSize) : null;
    const body = {
      servers: page.map((e) => ({
        server: e.server,
        _meta: {
          [OFFICIAL]: {
            status: e.status ?? "active",
            publishedAt: e.publishedAt ?? e.updatedAt,
            updatedAt: e.updatedAt,
            isLatest: e.isLatest ?? true,
          },
        },
      })),
      metadata: { count: page.length, ...(next ? { nextCursor: next } : {}) },
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const handle: FixtureRegistry = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    entries,
    requests,
    failPage: (cursor, times) => failures.set(cursor ?? "", times),
    misbehave: null,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return handle;
}
