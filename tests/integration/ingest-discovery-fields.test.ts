// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// A discovery list's items fail one at a time (counted, with their position), and the MCP tool
// field is read whether it is called `toolName` (what the SDKs send) or `tool` (the Bazaar specification's text),
// and kept only when it can be a tool's name.
// A plain HTTP server on loopback plays the facilitator.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchDiscoveryPage } from "@/lib/ingest/discovery-client";
import { createSafeFetch } from "@/lib/ssrf";

const item = (resource: string, input: Record<string, unknown>) => ({
  resource,
  type: "mcp",
  x402Version: 2,
  accepts: [],
  description: "Paid \u200banswers\u202e.",
  extensions: { bazaar: { info: { input: { type: "mcp", transport: "streamable-http", ...input } } } },
});

describe("x402 discovery items", () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    const items = [
      item("http://127.0.0.1:9/one", { toolName: "forecast" }),
      { type: "mcp", description: "no resource" },
      item("http://127.0.0.1:9/two", { tool: "report" }),
      "not an item",
      // A tool name that is none: an object, and a look-alike with a zero-width space (the server is kept, the name not).
      item("http://127.0.0.1:9/three", { toolName: { $ne: "" }, tool: "re\u200bport" }),
    ];
    server = http.createServer((_req, res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ x402Version: 2, items, pagination: { total: 4 } })),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/discovery/resources?type=mcp`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reads `tool` and `toolName` alike, keeps only real tool names, cleans the text, and skips bad items by position", async () => {
    const fetch = createSafeFetch({ allowPrivateHosts: true, timeoutMs: 5_000, maxBytes: 1_000_000 });
    try {
      const page = await fetchDiscoveryPage(fetch, url);
      expect(page.servers).toEqual([
        {
          remoteUrl: "http://127.0.0.1:9/one",
          name: "forecast",
          description: "Paid answers.",
          htmlStripped: false,
          toolName: "forecast",
        },
        {
          remoteUrl: "http://127.0.0.1:9/two",
          name: "report",
          description: "Paid answers.",
          htmlStripped: false,
          toolName: "report",
        },
        {
          remoteUrl: "http://127.0.0.1:9/three",
          name: "127.0.0.1:9",
          description: "Paid answers.",
          htmlStripped: false,
          toolName: null,
        },
      ]);
      expect(page).toMatchObject({ received: 5, malformed: 2, malformedAt: [1, 3] });
    } finally {
      await fetch.close();
    }
  });
});
