import { expect, test } from "@playwright/test";
import { privateKeyToAccount } from "viem/accounts";
import { signInWithGitHub } from "./support/auth";
import { e2eTestPurchaseKey } from "./support/test-purchase-key";

// What a person sees of Agora's test purchases (made for real while the database was prepared:
// tests/e2e/support/test-purchase-fixtures.ts): the line and badge on the listing and its card, and the admin's
// wallet panel flagging the server that took the money and delivered nothing.
test("a delivered test purchase shows on the page and the card; one that delivered nothing costs the badge and is flagged", async ({
  page,
  isMobile,
}, testInfo) => {
  await page.goto("/marketplace/delivery-tested-weather");
  const line = page.getByTestId("test-purchase");
  await expect(line).toContainText(
    /^Test purchase on [A-Z][a-z]{2} \d{1,2}, \d{4}: paid \$0\.01, delivered in \d+\.\d s\s+transaction on the local chain\s*$/,
  );
  // Settled on the run's chain on this machine: named, not linked to a public explorer that never saw it.
  await expect(line.getByRole("link", { name: "transaction" })).toHaveCount(0);
  await expect(line.getByTestId("local-chain-transaction")).toBeVisible();
  const badges = page.getByTestId("status-badges");
  await expect(badges.getByText("Delivery tested")).toBeVisible();
  await expect(badges.getByText("Verified")).toBeVisible();
  await page.screenshot({
    path: testInfo.outputPath(`delivered-${isMobile ? "phone" : "desktop"}.png`),
    fullPage: true,
  });

  await page.goto("/marketplace/takes-money-delivers-nothing");
  await expect(page.getByTestId("test-purchase")).toHaveText(
    /^Test purchase on [A-Z][a-z]{2} \d{1,2}, \d{4}: Paid, nothing delivered$/,
  );
  await expect(page.getByTestId("status-badges").getByText("Reachable")).toBeVisible();
  await expect(page.getByTestId("status-badges").getByText("Verified")).toHaveCount(0);
  await expect(page.getByTestId("status-badges").getByText("Delivery tested")).toHaveCount(0);
  await page.screenshot({
    path: testInfo.outputPath(`undelivered-${isMobile ? "phone" : "desktop"}.png`),
    fullPage: true,
  });

  // The card says the same in its badge.
  await page.goto(`/marketplace?q=${encodeURIComponent("Delivery Tested Weather")}`);
  const card = page.getByTestId("listing").filter({ hasText: "Delivery Tested Weather" });
  await expect(card.getByText("Delivery tested", { exact: true })).toBeVisible();
  // Three badges wrap inside the card instead of running past its edge.
  const [cardBox, badgeBox] = [
    await card.boundingBox(),
    await card.getByText("Delivery tested", { exact: true }).boundingBox(),
  ];
  expect(badgeBox!.x + badgeBox!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width);
  await page.screenshot({ path: testInfo.outputPath(`card-${isMobile ? "phone" : "desktop"}.png`) });
});

test("the admin sees the test-purchase wallet and the listing that took payment without delivering", async ({
  page,
  isMobile,
}, testInfo) => {
  test.skip(isMobile, "one run is enough; it shares the admin account");
  await signInWithGitHub(page, "e2e-admin");
  await page.goto("/admin/review");
  const panel = page.getByTestId("test-purchase-wallet");
  await expect(panel).toContainText(privateKeyToAccount(e2eTestPurchaseKey as `0x${string}`).address);
  await expect(panel).toContainText("Spent today");
  await expect(panel).toContainText("(off: the daily budget is 0)");
  await expect(panel.getByTestId("undelivered")).toContainText("Takes Money Delivers Nothing");
  await expect(panel.getByTestId("undelivered")).toContainText("Paid, nothing delivered");
  // The key itself is nowhere on the page.
  expect((await page.content()).toLowerCase()).not.toContain(e2eTestPurchaseKey.slice(2));
  await panel.screenshot({ path: testInfo.outputPath("admin-wallet.png") });
});
