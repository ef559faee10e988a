import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { directSeller } from "../support/direct-sales";
import { chainPort } from "./support/ports";

// Sales settled on the run's local chain (buyer-signed transferWithAuthorization, as a facilitator settles an x402
// payment) to the reference server's payee: the site's indexer reads them within seconds, and the detail page, the
// cards and the "Most purchased" sort show them. The sample's reference listings share that payee.
const PAYEE = "0x000000000000000000000000000000000000dEaD";

test("sales read from the chain show on the detail page, the cards and the Most purchased sort", async ({
  page,
  isMobile,
}, testInfo) => {
  test.skip(isMobile, "one run settles the sales; the phone layout is screenshotted below");
  // The indexer runs every second, but in the full suite under CI load one run was seen to take ~45 s (chain and
  // database shared with every other spec): the wait allows for that; the property is that the sales show.
  test.setTimeout(150_000);
  const seller = directSeller(`http://127.0.0.1:${chainPort}`);
  const [alice, bob] = [privateKeyToAccount(generatePrivateKey()), privateKeyToAccount(generatePrivateKey())];
  await seller.fund([alice.address, bob.address], 1_000_000n);
  await seller.settle([{ buyer: alice, payee: PAYEE, units: 10_000n }]);
  await seller.settle([{ buyer: alice, payee: PAYEE, units: 10_000n }]);
  const last = await seller.settle([{ buyer: bob, payee: PAYEE, units: 250_000n }]);

  await expect(async () => {
    await page.goto("/marketplace/weather-now");
    await expect(page.getByTestId("sales-panel").getByRole("row", { name: /^Sales/ })).toHaveText(/Sales\s*3\s*3\s*3/, {
      timeout: 1_000,
    });
  }).toPass({ timeout: 100_000 });
  const panel = page.getByTestId("sales-panel");
  await expect(panel.getByRole("row", { name: /^Unique buyers/ })).toHaveText(/Unique buyers\s*2\s*2\s*2/);
  await expect(panel.getByRole("row", { name: /^Volume/ })).toHaveText(/Volume\s*\$0\.27\s*\$0\.27\s*\$0\.27/);
  await expect(panel.getByTestId("last-sale")).toContainText("Last sale: $0.25 on");
  // It says how soon a sale shows (this run reads the chain every second).
  await expect(panel).toContainText("a new sale shows here within a minute of settling");
  // The run's chain is on this machine (CHAIN_RPC_URLS names loopback), as the sandbox's is: no public explorer has
  // the transaction, so the page names the local chain instead of linking Base Sepolia's explorer (a site reading a
  // real chain links it: tests/unit/transaction-place.test.ts).
  await expect(panel.getByTestId("last-sale")).toHaveText(
    /^Last sale: \$0\.25 on .+ · transaction on the local chain$/,
  );
  await expect(panel.getByRole("link", { name: "View transaction" })).toHaveCount(0);
  expect(await page.locator('a[href*="basescan"]').count()).toBe(0);
  expect(last).toMatch(/^0x[0-9a-f]{64}$/);
  await expect(panel.getByRole("img", { name: /Sales per day over the last 30 days: 3 in all\./ })).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("sales-detail.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("sales-detail-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto("/marketplace?q=weather+now");
  const card = page.getByTestId("listing").filter({ hasText: "Weather Now" }).first();
  await expect(card.getByTestId("sales-line")).toHaveText("3 sales · 2 buyers in 30 days");

  await page.goto("/marketplace");
  // A sort chosen before the controls hydrate is a plain form's select: it changes nothing until submitted.
  await expect(page.locator('form[role="search"][data-ready="true"]')).toBeAttached();
  await page.getByLabel("Sort").selectOption("purchased");
  await expect(page).toHaveURL(/sort=purchased/);
  // The listings paid to that payee lead (the three sample references, and any other spec's listing of the
  // reference server); listings nobody bought from follow, most sales first throughout.
  const lines = page.getByTestId("listing").getByTestId("sales-line");
  await expect(lines.nth(0)).toHaveText(/^\d+ sales · \d+ buyers in 30 days$/);
  const counts = (await lines.allTextContents()).map((text) =>
    text.trim() === "No sales yet" ? 0 : Number(/^(\d+) sales?/.exec(text.trim())?.[1]),
  );
  expect(counts[0]).toBeGreaterThanOrEqual(3);
  expect(counts).toEqual([...counts].sort((a, b) => b - a));
  expect(counts).toContain(0);
  await page.screenshot({ path: testInfo.outputPath("sales-most-purchased.png") });
});
