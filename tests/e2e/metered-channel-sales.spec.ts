import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  chainReader,
  Confirmations,
  Ledger,
  loadSettings,
  purchase,
  walletFromKey,
  type PurchaseDeps,
} from "@agora-mcp/client";
import { createPayPerUseServer } from "../../examples/pay-per-use-server";
import { directSeller } from "../support/direct-sales";
import { signInWithGitHub, uniqueLogin } from "./support/auth";
import { listServer } from "./support/listing-flow";
import { chainPort, facilitatorPort } from "./support/ports";

// The two new ways to pay, end to end: a kit server selling a metered item (up to $0.10) and a channel item ($0.001 a
// call) is listed through the site; the agent wallet buys one metered call that uses $0.03 and fifty channel calls on
// the run's local chain; the seller's kit claims the channel in one transaction. The site's indexer reads both: the
// listing shows the metered price row and the volume ($0.08), the buyer's wallet page what each purchase was.
// The kit claims when the test asks (its schedule has its own tests in batch-channel.test.ts).
const ONLY_WHEN_ASKED = { claimEvery: 1_000, claimIntervalSeconds: 3_600 };

test("a metered purchase and fifty channel calls show on the listing and the buyer's wallet page", async ({
  page,
  browser,
  isMobile,
}, testInfo) => {
  test.skip(isMobile, "one run buys; the phone layout is screenshotted below");
  test.setTimeout(240_000);
  const rpcUrl = `http://127.0.0.1:${chainPort}`;
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const kit = createPayPerUseServer({
    name: "two-schemes",
    walletAddress: payTo,
    claim: ONLY_WHEN_ASKED,
    facilitatorUrl: `http://127.0.0.1:${facilitatorPort}`,
  });
  const running = await kit.listen({ port: 0 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-e2e-schemes-"));
  try {
    const run = uniqueLogin(testInfo, "schemes");
    const name = `Pages and Words ${run}`;
    await signInWithGitHub(page, uniqueLogin(testInfo, "provider"));
    const admin = await listServer(page, browser, {
      name,
      description: "Summaries paid by the page used, lookups paid through a payment channel.",
      serverUrl: running.url,
    });
    await admin.close();

    const key = generatePrivateKey();
    const buyer = privateKeyToAccount(key).address;
    await directSeller(rpcUrl).fund([buyer], 1_000_000n);
    const settings = loadSettings({
      AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
      ENABLE_UNSAFE_DIRECT_ACCESS: "true",
      ENABLE_REQUEST_ELICITATION: "false",
      AGORA_RPC_URL: rpcUrl,
    });
    const deps: PurchaseDeps = {
      settings,
      wallet: walletFromKey(key),
      ledger: new Ledger(path.join(dir, "ledger.jsonl")),
      chain: chainReader(settings.network, settings.rpcUrl),
      confirmations: new Confirmations(),
      asker: { kind: "confirmation-id" },
    };
    expect(await purchase({ server: running.url, item: "summarise", params: { pages: "3" } }, deps)).toMatchObject({
      status: "delivered",
      priceUsd: "$0.03",
      maxPriceUsd: "$0.10",
    });
    for (let i = 0; i < 50; i++)
      expect(await purchase({ server: running.url, item: "lookup", params: { word: `w${i}` } }, deps)).toMatchObject({
        status: "delivered",
      });
    await kit.claimChannels();

    // The indexer reads both within seconds; the page keeps its view 10 s: reload until both show.
    await expect(async () => {
      await page.goto(`/wallet/${buyer}`);
      await expect(page.getByTestId("purchase")).toHaveCount(2, { timeout: 1_000 });
    }).toPass({ timeout: 120_000 });
    const [channel, metered] = [page.getByTestId("purchase").nth(0), page.getByTestId("purchase").nth(1)];
    await expect(channel).toContainText(name);
    await expect(channel).toContainText("$0.05");
    await expect(channel.getByTestId("purchase-terms")).toHaveText("Payment channel: 50 calls at $0.001");
    await expect(metered).toContainText("$0.03");
    await expect(metered.getByTestId("purchase-terms")).toHaveText("Metered: up to $0.10, paid $0.03");
    await page.screenshot({ path: testInfo.outputPath("wallet-schemes-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath("wallet-schemes-390.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await channel.getByRole("link", { name }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(page.getByText("up to $0.10 USDC").first()).toBeVisible();
    const panel = page.getByTestId("sales-panel");
    await expect(panel.getByRole("row", { name: /^Sales/ })).toHaveText(/Sales\s*2\s*2\s*2/);
    await expect(panel.getByRole("row", { name: /^Unique buyers/ })).toHaveText(/Unique buyers\s*1\s*1\s*1/);
    await expect(panel.getByRole("row", { name: /^Volume/ })).toHaveText(/Volume\s*\$0\.08\s*\$0\.08\s*\$0\.08/);
    // Fifty-one calls, two sales: the page says why.
    await expect(panel.getByTestId("channel-sales-note")).toHaveText(
      "Calls paid through a payment channel count when the server claims them: each claim is one sale, whatever number of calls it paid.",
    );
    await page.screenshot({ path: testInfo.outputPath("listing-schemes-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath("listing-schemes-390.png"), fullPage: true });
  } finally {
    await running.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
