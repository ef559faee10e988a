import { it, expect } from "vitest";
import { runIngest } from "@/lib/ingest/run-ingest";
import { parseIngestSources } from "@/lib/ingest/sources";
import { openTestDatabase } from "../support/databases";
import { startFixtureRegistry } from "../support/fixture-registry";

it("big page", async () => {
  const conn = await openTestDatabase("pglite");
  const reg = await startFixtureRegistry([]);
  reg.misbehave = (_q, res) => {
    const servers = Array.from({ length: 1000 }, (_, i) => ({ server: { name: `io.github.big/s${i}`, description: "x".repeat(50), version: "1.0.0", remotes: Array.from({ length: 20 }, (_, j) => ({ type: "streamable-http", url: `http://127.0.0.1:9/s${i}/r${j}` })) }, _meta: {} }));
    const body = JSON.stringify({ servers, metadata: {} });
    console.log("bytes", body.length);
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  };
  const run = await runIngest(conn.db, parseIngestSources(`mcp-registry=${reg.url}`), { allowPrivateHosts: true, retryDelayMs: 10, limit: 0 });
  console.log(JSON.stringify(run.sources[0]));
  await reg.close(); await conn.close();
}, 120000);
