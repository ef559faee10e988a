// A scheduled check's result reaches the pages the route cache already holds, at once rather than after their
// five-minute revalidation (lib/listings/checks/check-listings.ts revalidates the catalogue after each run, as test
// purchases, the sales indexer and ingestion do). The checks have to run inside a serving instance, where the cache
// is: a production server of its own, on a PostgreSQL database of its own (the suite's site runs with the schedule off).
import { expect, test } from "@playwright/test";
import { appPort } from "./support/ports";
import { startListedReferenceServer } from "./support/listed-reference-server";

test.skip(!process.env.DATABASE_URL, "needs a PostgreSQL server (DATABASE_URL)");
test.skip(({ isMobile }) => isMobile, "the cache, not a layout: one viewport is enough");

test("a scheduled check that finds the server down shows on the cached detail page and marketplace at once", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { server, closeReference, stop } = await startListedReferenceServer({
    port: appPort + 26,
    secret: "check-pages-secret-0123456789abcdef0123",
    listing: {
      name: "Checked Weather",
      slug: "checked-weather",
      description: "A paid server whose pages are cached while the schedule checks it.",
    },
    // Only the checks write: no sales to index, no test purchases.
    env: { CHECK_INTERVAL_SECONDS: "2", SALES_INDEX_INTERVAL_SECONDS: "0" },
  });
  try {
    const detail = `${server.origin}/marketplace/checked-weather`;
    const card = () => page.getByTestId("listing").filter({ hasText: "Checked Weather" });

    // Both pages cached while the server answers.
    await page.goto(detail);
    await expect(page.getByTestId("last-checked")).toContainText(": reachable");
    await expect(page.getByTestId("status-badges").getByText("Verified", { exact: true })).toBeVisible();
    await page.goto(`${server.origin}/marketplace`);
    await expect(card().getByText("Verified", { exact: true })).toBeVisible();

    // The server goes down: the next scheduled check records it, and both pages say so within seconds.
    await closeReference();
    await expect(async () => {
      await page.goto(detail);
      await expect(page.getByTestId("last-checked")).toContainText(": not reachable", { timeout: 1_000 });
    }).toPass({ timeout: 45_000 });
    await expect(page.getByTestId("status-badges").getByText("Verified", { exact: true })).toHaveCount(0);
    await page.goto(`${server.origin}/marketplace`);
    await expect(card()).toHaveCount(1);
    await expect(card().getByText("Verified", { exact: true })).toHaveCount(0);
  } finally {
    await stop();
  }
});
