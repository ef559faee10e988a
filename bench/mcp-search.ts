// Load test for the registry's MCP endpoint: search_servers at a fixed concurrency against a running server.
// Usage: npx tsx bench/mcp-search.ts <url> [--requests 2000] [--concurrency 32] [--max-seconds 120] [--allow-remote]
// <url> is the endpoint (http://localhost:3000/api/mcp) or the site (http://localhost:3000). See bench/README-mcp.md.
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "32" },
    "max-seconds": { type: "string", default: "120" },
    warmup: { type: "string", default: "50" },
    "allow-remote": { type: "boolean", default: false },
  },
});

const target = positionals[0];
if (!target) {
  console.error("usage: npx tsx bench/mcp-search.ts <url> [--requests N] [--concurrency N] [--max-seconds N]");
  process.exit(2);
}
const url = new URL(target);
if (url.pathname === "/" || url.pathname === "") url.pathname = "/api/mcp";
const loopback = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(url.hostname);
if (!loopback && !values["allow-remote"]) {
  console.error(
    `refusing ${url.host}: benchmarks target a server on this machine (pass --allow-remote for your own deployment)`,
  );
  process.exit(2);
}

const total = Number(values.requests);
const concurrency = Number(values.concurrency);
const deadline = Date.now() + Number(values["max-seconds"]) * 1000;

// A spread of realistic searches: browse pages, a rare word, common words, two words, a typo, categories; sorts.
const QUERIES = ["", "upscale", "weather", "token price", "scrapper", "finance", "data", "image", "legal", "ai"];
const SORTS = ["relevance", "popular", "newest", "name"] as const;
const PRICES = ["all", "free", "paid"] as const;
const argsFor = (i: number) => ({
  query: QUERIES[i % QUERIES.length],
  sort: SORTS[i % SORTS.length],
  price: PRICES[(i >> 2) % PRICES.length],
  limit: 10,
});

type Outcome = { ms: number; status: number; ok: boolean };

async function searchOnce(i: number): Promise<Outcome> {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: i,
        method: "tools/call",
        params: { name: "search_servers", arguments: argsFor(i) },
      }),
    });
    const body = (await res.json()) as { result?: { isError?: boolean; structuredContent?: { servers?: unknown[] } } };
    const ok =
      res.status === 200 &&
      !!body.result &&
      !body.result.isError &&
      Array.isArray(body.result.structuredContent?.servers);
    return { ms: performance.now() - started, status: res.status, ok };
  } catch {
    return { ms: performance.now() - started, status: 0, ok: false };
  }
}

async function runPool(count: number, record: boolean): Promise<{ outcomes: Outcome[]; seconds: number }> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count && Date.now() < deadline) {
        const outcome = await searchOnce(next++);
        if (record) outcomes.push(outcome);
      }
    }),
  );
  return { outcomes, seconds: (performance.now() - started) / 1000 };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

await runPool(Number(values.warmup), false);
const { outcomes, seconds } = await runPool(total, true);
const ok = outcomes.filter((o) => o.ok);
const latencies = ok.map((o) => o.ms).sort((a, b) => a - b);
const statuses = Object.entries(
  outcomes.reduce<Record<string, number>>(
    (acc, o) => ({ ...acc, [o.status || "network error"]: (acc[o.status || "network error"] ?? 0) + 1 }),
    {},
  ),
);

console.log(`target       ${url.href}`);
console.log(
  `requests     ${outcomes.length} (${ok.length} ok, ${outcomes.length - ok.length} failed) at concurrency ${concurrency}`,
);
console.log(`statuses     ${statuses.map(([s, n]) => `${s}: ${n}`).join(", ")}`);
console.log(
  `latency ms   p50 ${percentile(latencies, 50).toFixed(1)}  p90 ${percentile(latencies, 90).toFixed(1)}  p99 ${percentile(latencies, 99).toFixed(1)}  max ${(latencies.at(-1) ?? NaN).toFixed(1)}`,
);
console.log(`throughput   ${(ok.length / seconds).toFixed(1)} ok requests/s over ${seconds.toFixed(1)} s`);
if (outcomes.some((o) => o.status === 429))
  console.log("note         429s: the server's rate limit is on; see bench/README-mcp.md");
process.exit(ok.length === outcomes.length && outcomes.length > 0 ? 0 : 1);
