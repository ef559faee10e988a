import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { directSeller } from "../support/direct-sales";
import { chainPort } from "./support/ports";

// The wallet page a first-time user opens from the client's first-start line or its wallet tool: the balance read
// from the run's local chain (Base Sepolia), the purchases the site's indexer read from it, a QR code, the faucet.
const PAYEE = "0x000000000000000000000000000000000000dEaD"; // the sample reference listings' payee (sales.spec.ts)

test("a funded wallet that bought shows its balance, its purchases and a QR code, and names the local chain instead of a public explorer or faucet", async ({
  page,
  isMobile,
}, testInfo) => {
  test.skip(isMobile, "one run settles the purchase; the phone layout is screenshotted below");
  test.setTimeout(150_000);
  const seller = directSeller(`http://127.0.0.1:${chainPort}`);
  const buyer = privateKeyToAccount(generatePrivateKey());
  await seller.fund([buyer.address], 2_000_000n);
  await seller.settle([{ buyer, payee: PAYEE, units: 250_000n }]);

  // The indexer reads the sale within seconds; the page keeps its view 10 s: reload until both show.
  await expect(async () => {
    await page.goto(`/wallet/${buyer.address}`);
    await expect(page.getByTestId("purchase").first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 120_000 });

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fund your agent's wallet");
  await expect(page.getByTestId("wallet-address")).toHaveText(buyer.address);
  // It names the chain the site reads: the run's chain is on this machine (as the sandbox's is), never "Base" alone.
  await expect(page.getByTestId("fund-line")).toContainText(
    "Send USDC on Base Sepolia (a local chain on this machine) to this address.",
  );
  await expect(page.getByRole("img", { name: `QR code of the address ${buyer.address}` })).toBeVisible();
  const balance = page.getByTestId("balance");
  await expect(balance).toHaveCount(1);
  await expect(balance).toContainText("Base Sepolia");
  await expect(balance.getByTestId("balance-amount")).toHaveText("$1.75 USDC");
  // No public faucet or explorer: nothing there knows this chain's transactions.
  await expect(balance.getByTestId("local-chain")).toContainText(
    `Read from the local chain at http://127.0.0.1:${chainPort}`,
  );
  await expect(page.getByRole("link", { name: /faucet/i })).toHaveCount(0);
  await expect(page.getByText("faucet tokens take a few minutes")).toHaveCount(0);
  const purchase = page.getByTestId("purchase").first();
  await expect(purchase).toContainText("$0.25");
  await expect(purchase).toContainText("Base Sepolia, local chain");
  await expect(purchase.getByRole("link", { name: "View transaction" })).toHaveCount(0);
  expect(await page.locator('a[href*="basescan"], a[href*="faucet.circle.com"]').count()).toBe(0);
  // The time says UTC once, in the cell, not again in the column's heading.
  await expect(page.getByRole("columnheader", { name: "When", exact: true })).toBeVisible();
  await expect(purchase).toContainText("UTC");
  await expect(purchase.getByRole("link").first()).toHaveAttribute("href", /^\/marketplace\/[a-z0-9-]+$/);
  // Never indexed.
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await page.screenshot({ path: testInfo.outputPath("wallet-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("wallet-390.png"), fullPage: true });
});

test("an address nobody has used is an empty, correct page", async ({ page }, testInfo) => {
  const stranger = privateKeyToAccount(generatePrivateKey()).address;
  const response = await page.goto(`/wallet/${stranger.toLowerCase()}`);
  expect(response?.status()).toBe(200);
  // Shown checksummed whatever case it was typed in.
  await expect(page.getByTestId("wallet-address")).toHaveText(stranger);
  // No purchases: the balance is read from the chain only when the person asks for it.
  await expect(page.getByTestId("balance-amount")).toHaveCount(0);
  await expect(page.getByTestId("balance-on-request")).toContainText(
    "Not read yet: this address has no purchases recorded.",
  );
  await page.getByRole("link", { name: "Show balance" }).click();
  await expect(page).toHaveURL(new RegExp(`/wallet/${stranger}\\?balance=show$`));
  await expect(page.getByTestId("balance-amount")).toHaveText("$0.00 USDC");
  await expect(page.getByTestId("no-purchases")).toHaveText("No purchases from listed servers yet.");
  await expect(page.getByText(/error|exception|rpc/i)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("wallet-empty.png"), fullPage: true });
});

test("a malformed address is a 404", async ({ page }) => {
  const good = privateKeyToAccount(generatePrivateKey()).address;
  // Too short, not hex, a name, and mixed case with a broken checksum (one letter's case flipped).
  const flipped =
    good.slice(0, 2) +
    [...good.slice(2)]
      .map((c, i, all) =>
        i === all.findIndex((x) => /[a-fA-F]/.test(x))
          ? c === c.toUpperCase()
            ? c.toLowerCase()
            : c.toUpperCase()
          : c,
      )
      .join("");
  for (const bad of ["0x1234", `0x${"g".repeat(40)}`, "vitalik.eth", flipped]) {
    const response = await page.goto(`/wallet/${bad}`);
    expect(response?.status(), bad).toBe(404);
  }
});

test("the sitemap lists no wallet page", async ({ request }) => {
  // /sitemap.xml is an index of sitemap files (split at 50,000 URLs): every file it names is read.
  const index = await (await request.get("/sitemap.xml")).text();
  const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  expect(files.length).toBeGreaterThan(0);
  const sitemap = (await Promise.all(files.map(async (f) => (await request.get(f)).text()))).join("\n");
  expect(sitemap).toContain("/getting-started");
  expect(sitemap).not.toContain("/wallet/");
});
