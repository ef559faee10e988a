import { expect, test, type Page } from "@playwright/test";
import { startPricedServer } from "../support/priced-server";
import { signInWithGitHub, toast, uniqueLogin } from "./support/auth";
import { listServer } from "./support/listing-flow";

// A provider's server changes its price, then its payee wallet, after approval: the page, the provider
// and the reviewers see it. One run (desktop): it shares the admin account with the review flow.
const WALLET_A = "0x1111111111111111111111111111111111111111";
const WALLET_B = "0x2222222222222222222222222222222222222222";

async function recheck(page: Page, name: string) {
  await page.goto("/account");
  const entry = page.getByRole("listitem").filter({ hasText: name });
  await entry.getByRole("button", { name: "Re-check" }).click();
  await expect(toast(page, "Checked")).toBeVisible({ timeout: 20_000 });
  return entry;
}

test("a changed price shows on the page and to the provider; a changed wallet sends the listing back to review", async ({ page, browser, isMobile }, testInfo) => {
  test.skip(isMobile, "one run is enough; it shares the admin account");
  test.setTimeout(120_000);
  const server = await startPricedServer({ items: [{ name: "Forecast", amount: 0.01 }, { name: "Radar", amount: 0.1 }], wallet: WALLET_A, extraTool: false });
  try {
    const name = `Drifting Server ${uniqueLogin(testInfo, "d")}`;
    await signInWithGitHub(page, uniqueLogin(testInfo, "drift-provider"));
    const admin = await listServer(page, browser, { name, description: "A server whose price and wallet change after approval.", serverUrl: server.url });

    // The price goes up after approval: the next check records it, and everyone can see it.
    server.state.items = [{ name: "Forecast", amount: 0.03 }, { name: "Radar", amount: 0.1 }];
    const entry = await recheck(page, name);
    await expect(entry.getByTestId("drift-notes")).toContainText(/Price changed on .+: Forecast — 0\.01 USDC → 0\.03 USDC/);
    await page.goto(`/marketplace?q=${encodeURIComponent(name)}`);
    await page.getByRole("link", { name }).click();
    await expect(page.getByTestId("drift-notes")).toContainText(/Price changed on .+: Forecast — 0\.01 USDC → 0\.03 USDC/);
    await expect(page.getByTestId("status-badges").getByText("Verified")).toBeVisible();
    const detail = page.url();
    await page.screenshot({ path: testInfo.outputPath("price-changed-detail.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath("price-changed-detail-390.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The payee wallet changes: back to review, out of the catalogue, and the reviewers see why.
    server.state.wallet = WALLET_B;
    const moved = await recheck(page, name);
    await expect(moved.getByText("Pending review")).toBeVisible();
    await expect(moved.getByTestId("drift-notes")).toContainText(`Payee wallet changed`);
    await expect(moved.getByTestId("drift-notes")).toContainText(`${WALLET_A} → ${WALLET_B} (sent back to review)`);
    await page.screenshot({ path: testInfo.outputPath("wallet-changed-account.png"), fullPage: true });
    expect((await page.goto(detail))?.status()).toBe(404);
    await admin.goto("/admin/review");
    await expect(admin.getByTestId("queue-entry").filter({ hasText: name }).getByTestId("drift-notes")).toContainText("Payee wallet changed");
  } finally {
    await server.close();
  }
});
