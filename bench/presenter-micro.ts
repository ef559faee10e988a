// npx tsx --import ./scripts/support/server-only-off.mjs bench/presenter-micro.ts — /api/mcp-agents' per-answer CPU
// outside the server (database read, row mapping, presenter, serialisation and ETag), against BENCH_DATABASE_URL
// (default agora_perf, 100,000 seeded listings): searches from bench/queries.ts one at a time, best of 5 trials.
// Run with --cpu-prof to see where the time goes without the server's own work around it.
import { createHash } from "node:crypto";
import { toApiAgent } from "@/lib/listings/presenters/api-agent";
import { searchListingViews } from "@/lib/listings/search/search";
import { apiQuerySchema, withDefaultSort } from "@/lib/validations/marketplace";
import { buildQuerySet } from "./queries";
import { openBenchDatabase } from "./seed";

const target = {
  driver: "postgres" as const,
  serverUrl: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/agora_perf",
  pgliteDir: "",
};
const { db, close } = await openBenchDatabase(target);
const rounds = Number(process.env.ROUNDS ?? 100);
const queries = (await buildQuerySet(db, rounds * 5)).map((q) => q.q);
let qi = 0;
const present = { cpu: [] as number[], all: [] as number[] };
let bytes = 0;
for (let trial = 0; trial < 5; trial++) {
  let presentUs = 0;
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) {
    const {
      limit,
      page: _page,
      cursor: _cursor,
      ...filters
    } = apiQuerySchema.parse({ q: queries[qi++ % queries.length], limit: "24" });
    const { items } = await searchListingViews(db, withDefaultSort(filters), { limit, offset: 0 });
    const p = process.cpuUsage();
    const json = JSON.stringify(items.map(toApiAgent));
    createHash("sha1").update(json).digest("base64url");
    const pu = process.cpuUsage(p);
    presentUs += pu.user + pu.system;
    bytes += json.length;
  }
  const used = process.cpuUsage(start);
  present.all.push((used.user + used.system) / 1000 / rounds);
  present.cpu.push(presentUs / 1000 / rounds);
}
const fmt = (xs: number[]) => `${xs.map((t) => t.toFixed(3)).join(" ")} (best ${Math.min(...xs).toFixed(3)})`;
console.log(`avg ${Math.round(bytes / rounds / 5)} chars an answer`);
console.log(`CPU ms an answer, whole path: ${fmt(present.all)}`);
console.log(`CPU ms an answer, present+serialise+etag: ${fmt(present.cpu)}`);
await close();
