// A scheduled check's result reaches the pages the route cache already holds, at once rather than after their
// five-minute revalidation (lib/listings/checks/check-listings.ts revalidates the catalogue after each run, as test
// purchases, the sales indexer and ingestion do). The checks have to run inside a serving instance, where the cache
// is: a production server of its own, on a PostgreSQL database of its own (the suite's site runs with the schedule off).
import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { openPostgres } from "@/db/connect";
import { startReferenceServer } from "@/examples/monetized-server/server";
import { recordCheck } from "@/lib/listings/checks/drift";
import { insertListing } from "@/lib/listings/write";
import { probeServer } from "@/lib/probe";
import { appPort, facilitatorPort } from "./support/ports";
import { createProductionDatabase, startProductionServer } from "./support/production-server";

test.skip(!process.env.DATABASE_URL, "needs a PostgreSQL server (DATABASE_URL)");
test.skip(({ isMobile }) => isMobile, "the cache, not a layout: one viewport is enough");

const port = appPort + 26;
const production = { NODE_ENV: "production", AUTH_SECRET: "check-pages-secret-0123456789abcdef0123", SITE_URL: `http://127.0.0.1:${port}` };

test("a scheduled check that finds the server down shows on the cached detail page and marketplace at once", async ({ page }) => {
  test.setTimeout(120_000);
  const url = await createProductionDatabase(`agora_check_pages_${port}`, production);
  const payee = privateKeyToAccount(generatePrivateKey()).address;
  const reference = await startReferenceServer({ port: 0, walletAddress: payee, facilitatorUrl: `http://127.0.0.1:${facilitatorPort}`, name: "checked-pages" });
  const fixtures = await openPostgres(url, { max: 1 });
  let server: Awaited<ReturnType<typeof startProductionServer>> | undefined;
  let referenceUp = true;
  try {
    const listing = await insertListing(fixtures.db, { name: "Checked Weather", slug: "checked-weather", description: "A paid server whose pages are cached while the schedule checks it.", categories: ["Data"], serverUrl: reference.url, websiteUrl: null, status: "approved", price: null });
    await recordCheck(fixtures.db, listing, await probeServer(reference.url, { allowPrivateHosts: true }));

    server = await startProductionServer(port, {
      ...production,
      DATABASE_URL: url,
      UNSAFE_TEST_MODE: "1",
      PROBE_ALLOW_PRIVATE_HOSTS: "true",
      VERIFY_INTERVAL_SECONDS: "2",
      // Only the checks write: no sales to index, no test purchases.
      SALES_INDEX_INTERVAL_SECONDS: "0",
    });
    const detail = `${server.origin}/marketplace/checked-weather`;
    const card = () => page.getByTestId("listing").filter({ hasText: "Checked Weather" });

    // Both pages cached while the server answers.
    await page.goto(detail);
    await expect(page.getByTestId("last-checked")).toContainText(": reachable");
    await expect(page.getByTestId("status-badges").getByText("Verified", { exact: true })).toBeVisible();
    await page.goto(`${server.origin}/marketplace`);
    await expect(card().getByText("Verified", { exact: true })).toBeVisible();

    // The server goes down: the next scheduled check records it, and both pages say so within seconds.
    await reference.close();
    referenceUp = false;
    await expect(async () => {
      await page.goto(detail);
      await expect(page.getByTestId("last-checked")).toContainText(": not reachable", { timeout: 1_000 });
    }).toPass({ timeout: 45_000 });
    await expect(page.getByTestId("status-badges").getByText("Verified", { exact: true })).toHaveCount(0);
    await page.goto(`${server.origin}/marketplace`);
    await expect(card()).toHaveCount(1);
    await expect(card().getByText("Verified", { exact: true })).toHaveCount(0);
  } finally {
    await server?.stop();
    await fixtures.close();
    if (referenceUp) await reference.close();
  }
});
