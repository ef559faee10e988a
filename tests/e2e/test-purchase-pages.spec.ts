// A test purchase the schedule records reaches the pages the route cache already holds, at once rather than after
// their five-minute revalidation (lib/test-purchases/run.ts revalidates the catalogue through
// lib/cache/invalidate.ts, as the sales indexer and ingestion do). The purchase has to run inside a
// serving instance, where the cache is: a production server of its own, on a PostgreSQL database of its own (the
// embedded database admits one process, and the suite's site runs with the schedule off).
import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { directSeller } from "../support/direct-sales";
import { appPort, chainPort } from "./support/ports";
import { startListedReferenceServer } from "./support/listed-reference-server";

test.skip(!process.env.DATABASE_URL, "needs a PostgreSQL server (DATABASE_URL)");
test.skip(({ isMobile }) => isMobile, "the cache, not a layout: one viewport is enough");

test("a recorded test purchase shows on the cached detail page and marketplace at once", async ({ page }) => {
  test.setTimeout(120_000);
  const chain = directSeller(`http://127.0.0.1:${chainPort}`);
  // The test-purchase wallet starts empty: each scheduled run finds it cannot pay and records nothing, until it is funded.
  const key = generatePrivateKey();
  const { server, stop } = await startListedReferenceServer({
    port: appPort + 25,
    secret: "test-purchase-pages-secret-0123456789abcdef",
    listing: {
      name: "Cached Weather",
      slug: "cached-weather",
      description: "A paid server whose pages are cached when Agora test-buys from it.",
    },
    env: {
      CHECK_INTERVAL_SECONDS: "2",
      CHAIN_RPC_URLS: `eip155:84532=http://127.0.0.1:${chainPort}`,
      // Sales would revalidate the detail page by themselves: the indexer stays off here.
      SALES_INDEX_INTERVAL_SECONDS: "0",
      TEST_PURCHASE_WALLET_KEY: key,
      TEST_PURCHASE_DAILY_BUDGET: "1",
      TEST_PURCHASE_MAX_PRICE: "0.10",
    },
  });
  try {
    const detail = `${server.origin}/marketplace/cached-weather`;

    // Both pages cached before any purchase. (Each scheduled check run revalidates them too, check-pages.spec.ts;
    // the purchase is recorded after the run's checks, so a page rendered in between needs its own revalidation.)
    await page.goto(detail);
    await expect(page.getByRole("heading", { level: 1, name: "Cached Weather" })).toBeVisible();
    await expect(page.getByTestId("test-purchase")).toHaveCount(0);
    await expect(page.getByTestId("status-badges").getByText("Delivery tested")).toHaveCount(0);
    await page.goto(`${server.origin}/marketplace`);
    await expect(
      page.getByTestId("listing").filter({ hasText: "Cached Weather" }).getByText("Delivery tested", { exact: true }),
    ).toHaveCount(0);

    // Funded, the next run buys the cheapest item ($0.01) and records the delivery: both pages show it within seconds.
    await chain.fund([privateKeyToAccount(key).address], 1_000_000n);
    await expect(async () => {
      await page.goto(detail);
      await expect(page.getByTestId("test-purchase")).toContainText(/paid \$0\.01, delivered in \d+\.\d s/, {
        timeout: 1_000,
      });
    }).toPass({ timeout: 45_000 });
    await expect(page.getByTestId("status-badges").getByText("Delivery tested")).toBeVisible();
    await page.goto(`${server.origin}/marketplace`);
    await expect(
      page.getByTestId("listing").filter({ hasText: "Cached Weather" }).getByText("Delivery tested", { exact: true }),
    ).toBeVisible();
  } finally {
    await stop();
  }
});
