import { expect, test, type Page } from "@playwright/test";
import { startPricedServer } from "../support/priced-server";
import { signInWithGitHub, toast, uniqueLogin } from "./support/auth";
import { listServer } from "./support/listing-flow";

// A provider's server changes its price, then raises it 999×, then changes its payee wallet, after approval: the
// page, the provider and the reviewers see it, and the steep rise and the payee wait for review. One run (desktop): it shares the admin account with the review flow.
const WALLET_A = "0x1111111111111111111111111111111111111111";
const WALLET_B = "0x2222222222222222222222222222222222222222";

async function recheck(page: Page, name: string) {
  await page.goto("/account");
  const entry = page.getByRole("listitem").filter({ hasText: name });
  await entry.getByRole("button", { name: "Re-check" }).click();
  await expect(toast(page, "Checked")).toBeVisible({ timeout: 20_000 });
  return entry;
}

test("a changed price shows on the page and to the provider; a steep rise and a changed wallet wait for review, the approved terms shown", async ({
  page,
  browser,
  isMobile,
}, testInfo) => {
  test.skip(isMobile, "one run is enough; it shares the admin account");
  test.setTimeout(120_000);
  const server = await startPricedServer({
    items: [
      { name: "Forecast", amount: 0.01 },
      { name: "Radar", amount: 0.1 },
    ],
    wallet: WALLET_A,
    extraTool: false,
  });
  try {
    const name = `Drifting Server ${uniqueLogin(testInfo, "d")}`;
    await signInWithGitHub(page, uniqueLogin(testInfo, "drift-provider"));
    const admin = await listServer(page, browser, {
      name,
      description: "A server whose price and wallet change after approval.",
      serverUrl: server.url,
    });

    // The price goes up after approval, within the review factor (2×): the next check applies and records it, and
    // everyone can see it.
    server.state.items = [
      { name: "Forecast", amount: 0.02 },
      { name: "Radar", amount: 0.1 },
    ];
    const entry = await recheck(page, name);
    await expect(entry.getByTestId("drift-notes")).toContainText(
      /Price changed on .+: Forecast — 0\.01 USDC → 0\.02 USDC/,
    );
    await page.goto(`/marketplace?q=${encodeURIComponent(name)}`);
    await page.getByRole("link", { name }).click();
    await expect(page.getByTestId("drift-notes")).toContainText(
      /Price changed on .+: Forecast — 0\.01 USDC → 0\.02 USDC/,
    );
    await expect(page.getByTestId("status-badges").getByText("Verified")).toBeVisible();
    const detail = page.url();
    await page.screenshot({ path: testInfo.outputPath("price-changed-detail.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath("price-changed-detail-390.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // A steep rise (999× the approved price; the factor is against what was approved, so small rises cannot add up):
    // held for review. The page keeps the last price it showed and the approved payee, without Verified, and says
    // what the server now asks.
    server.state.items = [
      { name: "Forecast", amount: 9.99 },
      { name: "Radar", amount: 0.1 },
    ];
    await recheck(page, name);
    await page.goto(detail);
    await expect(page.getByTestId("drift-notes")).toContainText(
      /Price changed on .+: Forecast — 0\.01 USDC → 9\.99 USDC \(held for review\)/,
    );
    await expect(page.getByTestId("status-badges").getByText("Verified")).toHaveCount(0);
    await expect(page.getByText("$9.99")).toHaveCount(0);
    await expect(page.getByText(`Accepts USDC_BASE_SEPOLIA → ${WALLET_A}`)).toBeVisible();

    // The payee wallet changes too: still listed with the approved wallet, and the reviewers see both changes.
    server.state.wallet = WALLET_B;
    const moved = await recheck(page, name);
    await expect(moved.getByTestId("drift-notes")).toContainText(`${WALLET_A} → ${WALLET_B} (held for review)`);
    await page.screenshot({ path: testInfo.outputPath("wallet-changed-account.png"), fullPage: true });
    expect((await page.goto(detail))?.status()).toBe(200);
    await expect(page.getByText(`Accepts USDC_BASE_SEPOLIA → ${WALLET_A}`)).toBeVisible();
    await expect(page.getByText(`Accepts USDC_BASE_SEPOLIA → ${WALLET_B}`)).toHaveCount(0);
    await admin.goto("/admin/review");
    const held = admin.getByTestId("edit-entry").filter({ hasText: name });
    await expect(held.getByTestId("edit-changes")).toContainText("Forecast: 9.99 USDC");
    await expect(held.getByTestId("edit-changes")).toContainText(`USDC_BASE_SEPOLIA → ${WALLET_B}`);
  } finally {
    await server.close();
  }
});
