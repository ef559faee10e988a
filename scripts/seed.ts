// npm run db:seed [-- --count N] — the sample catalogue, or N synthetic listings for benchmarks.
import { parseArgs } from "node:util";
import { openConfiguredDatabase } from "./support/database";
import { probeSampleListings } from "@/lib/sample-catalogue/probes";
import { seedSampleCatalogue, seedSynthetic } from "@/lib/sample-catalogue/seed";

const { values } = parseArgs({ options: { count: { type: "string" } } });
const count = values.count === undefined ? undefined : Number(values.count);
if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > 5_000_000)) {
  console.error("--count must be a whole number between 1 and 5000000");
  process.exit(2);
}

const conn = await openConfiguredDatabase();
const started = Date.now();
const inserted = count === undefined ? await seedSampleCatalogue(conn.db) : await seedSynthetic(conn.db, count);
console.log(`Inserted ${inserted} listings in ${((Date.now() - started) / 1000).toFixed(1)} s (${conn.driver}).`);
if (count === undefined) {
  const verified = await probeSampleListings(conn.db);
  console.log(
    `${verified} sample listings verified by the reference server on loopback (none unless it runs and PROBE_ALLOW_PRIVATE_HOSTS=true).`,
  );
}
await conn.close();
