// DATABASE_URL=postgres://postgres@127.0.0.1:5432/agora_perf RATE_LIMIT_DISABLED=1 SITE_URL=http://localhost:3000 \
//   npx tsx --import ./scripts/support/server-only-off.mjs bench/route-micro.ts
// The JSON search API's and the Bazaar search's handlers called in-process (route wrapper, query, presenter,
// serialisation; no Next server around them): CPU ms an answer over bench/queries.ts searches, best of 5 trials.
// A quick same-run before/after for presenter and query changes; bench:search measures the deployed server.
import { GET as apiSearch } from "@/app/api/mcp-agents/route";
import { GET as bazaarSearch } from "@/app/discovery/search/route";
import { getDb } from "@/lib/database";
import { buildQuerySet } from "./queries";

const rounds = Number(process.env.ROUNDS ?? 100);
const queries = (await buildQuerySet(await getDb(), rounds * 10)).map((q) => q.q);
let qi = 0;
const surfaces: [string, (q: string) => Promise<Response>][] = [
  [
    "api",
    (q) =>
      apiSearch(new Request(`http://localhost:3000/api/mcp-agents?q=${encodeURIComponent(q)}&limit=24`), {
        params: Promise.resolve({}),
      } as never),
  ],
  [
    "bazaar",
    (q) =>
      bazaarSearch(new Request(`http://localhost:3000/discovery/search?query=${encodeURIComponent(q)}`), {
        params: Promise.resolve({}),
      } as never),
  ],
];
const only = process.env.ONLY?.split(",");
for (const [name, call] of surfaces.filter(([n]) => !only || only.includes(n))) {
  const times: number[] = [];
  let bytes = 0;
  for (let trial = 0; trial < 5; trial++) {
    const start = process.cpuUsage();
    for (let i = 0; i < rounds; i++) {
      const res = await call(queries[qi++ % queries.length]!);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${await res.text()}`);
      bytes += (await res.text()).length;
    }
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000 / rounds);
  }
  console.log(
    `${name}: avg ${Math.round(bytes / rounds / 5)} chars; CPU ms an answer ${times.map((t) => t.toFixed(3)).join(" ")} (best ${Math.min(...times).toFixed(3)})`,
  );
}
process.exit(0);
