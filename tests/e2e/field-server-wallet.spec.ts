import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "@playwright/test";
import { createWalletClient, http, publicActions } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import { ANVIL_TEST_KEYS, USDC_ABI, USDC_ADDRESS } from "../../sandbox/chain";
import { startFieldServer } from "../support/field-servers";
import { signInWithGitHub, toast, uniqueLogin } from "./support/auth";
import { adminPage } from "./support/listing-flow";
import { chainPort, facilitatorPort } from "./support/ports";

// A paid server built with Cloudflare's Agents SDK (`agents/x402`, not Agora's kit) goes the whole way a stranger's
// server goes: its owner submits it through the form (the form reads its tools: the paid one is marked by the
// server itself, the free one is left alone), the check prices it, an admin approves it, and the agent wallet
// (the built client, over stdio, as a host runs it) finds it by its URL in the site's registry, explores it and
// buys the paid tool. The money is read on the run's local chain: exactly the price leaves the buyer and reaches the
// server's payee; the free tool, which has a side effect, is never called.
const BIN = path.resolve("packages/client/dist/bin.js");
const UNITS = 10_000n; // $0.01

test("a Cloudflare agents/x402 server submitted through the form is listed as paid and bought by the wallet by its URL", async ({
  page,
  browser,
  isMobile,
}, testInfo) => {
  test.skip(isMobile, "one run is enough (the form is screenshotted at 390 px below); it shares the admin account");
  test.setTimeout(180_000);
  const rpcUrl = `http://127.0.0.1:${chainPort}`;
  const payee = privateKeyToAccount(generatePrivateKey()).address;
  const server = await startFieldServer("cloudflare-agents", {
    facilitatorUrl: `http://127.0.0.1:${facilitatorPort}`,
    payTo: payee,
    units: UNITS,
  });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-e2e-wallet-"));
  let wallet: Client | undefined;
  try {
    const run = uniqueLogin(testInfo, "cf");
    const name = `Forecast on Cloudflare agents ${run}`;
    await signInWithGitHub(page, uniqueLogin(testInfo, "cf-provider"));
    await page.goto("/submit");
    await page.getByLabel("Name").fill(name);
    await page
      .getByLabel("Description")
      .fill("Tomorrow's forecast for a city, paid per call, built with Cloudflare's Agents SDK.");
    await page.getByLabel("MCP Server URL").fill(server.url);
    await page.getByLabel("Categories", { exact: true }).fill("Data");
    await page.keyboard.press("Enter");

    // "Which tools charge?" reads the tool list: the server marks its paid tool itself; the free one stays unticked.
    const section = page.getByRole("group", { name: /Which tools charge\?/ });
    await section.getByRole("button", { name: "Read the server's tools" }).click();
    const tools = section.getByRole("list", { name: "The server's tools" });
    await expect(tools.getByRole("checkbox")).toHaveCount(2, { timeout: 15_000 });
    const paidRow = tools.getByRole("listitem").filter({ hasText: server.paidTool });
    await expect(paidRow).toContainText("marked paid by the server");
    await expect(paidRow.getByRole("checkbox")).toBeChecked();
    await expect(
      tools.getByRole("listitem").filter({ hasText: server.freeTool }).getByRole("checkbox"),
    ).not.toBeChecked();
    await section
      .getByRole("checkbox", { name: "Read each ticked tool's price by calling it unpaid, up to twice per check" })
      .check();
    await page.screenshot({ path: testInfo.outputPath("cloudflare-which-tools-charge.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await section.screenshot({ path: testInfo.outputPath("cloudflare-which-tools-charge-390.png") });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole("button", { name: "Submit for review" }).click();
    await expect(toast(page, "Success", "Your MonetizedMCP server has been submitted successfully")).toBeVisible();

    // The check prices it in the background; an admin approves it once the queue shows the price.
    const admin = await adminPage(browser);
    const queued = admin.getByTestId("queue-entry").filter({ hasText: name });
    await expect(async () => {
      await admin.goto("/admin/review");
      await expect(queued.getByText("Priced at $0.01 on Base Sepolia")).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 45_000 });
    await queued.getByRole("button", { name: "Approve" }).click();
    await expect(toast(admin, "Approved")).toBeVisible({ timeout: 60_000 });
    await page.goto(`/marketplace?q=${encodeURIComponent(run)}`);
    const card = page.getByTestId("listing").filter({ hasText: name });
    await expect(card.getByTestId("price")).toHaveText(/\$0\.01/);

    // A buyer's wallet: a fresh key, funded with the run's USDC, imported into the built client.
    const key = generatePrivateKey();
    const buyer = privateKeyToAccount(key).address;
    const chain = createWalletClient({
      account: privateKeyToAccount(ANVIL_TEST_KEYS.minter),
      chain: baseSepolia,
      transport: http(rpcUrl),
    }).extend(publicActions);
    await chain.waitForTransactionReceipt({
      hash: await chain.writeContract({
        address: USDC_ADDRESS,
        abi: USDC_ABI,
        functionName: "mint",
        args: [buyer, 1_000_000n],
      }),
    });
    const balance = async (of: `0x${string}`) =>
      (await chain.readContract({
        address: USDC_ADDRESS,
        abi: USDC_ABI,
        functionName: "balanceOf",
        args: [of],
      })) as bigint;
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      // The site under test is the registry; the server is reached by URL through its listing there (no direct access).
      AGORA_REGISTRY_URL: `${new URL(testInfo.project.use.baseURL!).origin}/api`,
      AGORA_RPC_URL: rpcUrl,
      AGORA_WALLET_FILE: path.join(tmp, ".agora-mcp", "wallet.json"),
      ENABLE_REQUEST_ELICITATION: "false",
      AGORA_MAX_PER_PURCHASE: "0.05",
      AGORA_DAILY_CAP: "1.00",
    };
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, "import-key"], { env: env as NodeJS.ProcessEnv });
      child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`import-key exited ${code}`))));
      child.stdin.end(key);
    });
    wallet = new Client({ name: "e2e-host", version: "1.0.0" });
    await wallet.connect(new StdioClientTransport({ command: process.execPath, args: [BIN], env, stderr: "ignore" }));
    const call = async (tool: string, args: Record<string, unknown>) => {
      const result = (await wallet!.callTool({ name: tool, arguments: args }, undefined, {
        timeout: 60_000,
      })) as CallToolResult;
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      return { result, data: (result.structuredContent ?? {}) as Record<string, unknown>, text };
    };

    const explored = await call("explore_server", { server: server.url });
    expect(explored.result.isError, explored.text).toBeFalsy();
    expect(explored.data.x402Tools).toEqual([
      expect.objectContaining({ name: server.paidTool, style: "cloudflare-agents" }),
    ]);
    expect(explored.text).toContain(`- paid tool ${server.paidTool} (Cloudflare Agents SDK (x402))`);
    expect(server.counts).toEqual({ paidRuns: 0, freeCalls: 0 });

    const before = { buyer: await balance(buyer), payee: await balance(payee) };
    expect(before).toEqual({ buyer: 1_000_000n, payee: 0n });
    const bought = await call("purchase", { server: server.url, item: server.paidTool, params: { city: "Lisbon" } });
    expect(bought.data, bought.text).toMatchObject({
      status: "delivered",
      signed: true,
      priceUsd: "$0.01",
      item: server.paidTool,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(bought.text).toContain("Lisbon");
    expect({ buyer: await balance(buyer), payee: await balance(payee) }).toEqual({
      buyer: before.buyer - UNITS,
      payee: before.payee + UNITS,
    });
    expect(server.counts).toEqual({ paidRuns: 1, freeCalls: 0 });
  } finally {
    await wallet?.close();
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
