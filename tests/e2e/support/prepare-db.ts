// Gives the end-to-end server a fresh database with the sample catalogue, on either driver.
// On a server it uses its own database (agora_e2e), never the one DATABASE_URL names.
import fs from "node:fs";
import postgres from "postgres";
import { openPglite, openPostgres } from "@/db/connect";
import { seedSampleCatalogue } from "@/lib/sample-catalogue/seed";
import { insertListing } from "@/lib/listings/write";
import { probeSampleListings } from "@/lib/sample-catalogue/probes";
import { referencePort } from "./ports";
import { addTestPurchaseFixtures } from "./test-purchase-fixtures";
import type { Db } from "@/db/types";

// A listing whose text is markup: the pages must show it as text and never run it.
async function addFixtures(db: Db) {
  await insertListing(db, {
    name: "<script>window.__xss=1</script>Markup Probe",
    slug: "markup-probe",
    description: '<img src=x onerror="window.__xss=2"> This description is shown as text, never as HTML.',
    categories: ["Security"],
    price: 0.01,
    serverUrl: "https://markup-probe.example.com/mcp",
    status: "approved",
    createdAt: new Date(Date.now() - 90 * 86_400_000),
  });
}

// Imported listings nobody has claimed yet (tests/e2e/claims.spec.ts): one per project for the GitHub path (on the
// account's GitHub Pages host, which its io.github name covers), one reverse-DNS name for the token path, and one
// io.github name on a host it does not cover (the host claim).
async function addClaimFixtures(db: Db) {
  const imported = { categories: [], status: "approved" as const, source: "mcp-registry" as const };
  for (const project of ["desktop", "mobile"]) {
    await insertListing(db, {
      ...imported,
      name: `Claimable Weather ${project}`,
      slug: `claimable-weather-${project}`,
      description: "Weather forecasts imported from the MCP Registry, waiting for their publisher to claim them.",
      serverUrl: `https://e2e-claimer-${project}.github.io/weather/mcp`,
      upstreamName: `io.github.e2e-claimer-${project}/weather`,
    });
  }
  await insertListing(db, {
    ...imported,
    name: "Claimable Lookup",
    slug: "claimable-lookup",
    description: "A lookup service imported from the MCP Registry under a reverse-DNS name.",
    serverUrl: "https://lookup.claims-e2e.example.com/mcp",
    upstreamName: "com.example.claims-e2e/lookup",
  });
  await insertListing(db, {
    ...imported,
    name: "Claimable Host",
    slug: "claimable-host",
    description: "An API imported from the MCP Registry under an io.github name that does not cover its host.",
    serverUrl: "https://api.host-e2e.example.net/mcp",
    upstreamName: "io.github.e2e-someone/api",
  });
}

// The sample's reference listings point at the run's reference server and are probed once it answers
// (Playwright starts it beside this script), so the catalogue shows badges a real probe earned.
async function seed(db: Db) {
  await seedSampleCatalogue(db, new Date(), `http://127.0.0.1:${referencePort}/mcp`);
  const verified = await probeSampleListings(db, { allowPrivateHosts: true, attempts: 30 });
  console.log(`sample catalogue: ${verified} reference listings verified by a probe`);
  await addFixtures(db);
  await addTestPurchaseFixtures(db);
  await addClaimFixtures(db);
}

// A fresh database needs fresh caches: a reused build keeps the previous run's cached pages and data
// (Next's route and fetch caches on disk), which would show listings this database no longer has.
// The standalone server (CI's PostgreSQL pass) keeps its own under .next/standalone/.next.
for (const dir of [
  ".next/server/route-cache",
  ".next/cache/fetch-cache",
  ".next/standalone/.next/server/route-cache",
  ".next/standalone/.next/cache/fetch-cache",
])
  fs.rmSync(dir, { recursive: true, force: true });

const url = process.env.E2E_DATABASE_URL;
if (url) {
  const name = new URL(url).pathname.slice(1);
  const adminUrl = new URL(url);
  adminUrl.pathname = "/postgres";
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const conn = await openPostgres(url, { max: 1 });
  await seed(conn.db);
  await conn.close();
  console.log(`e2e database ${name} ready`);
} else {
  const dir = process.env.PGLITE_DIR ?? ".data/e2e";
  fs.rmSync(dir, { recursive: true, force: true });
  const conn = await openPglite(dir);
  await seed(conn.db);
  await conn.close();
  console.log(`e2e embedded database ${dir} ready`);
}
