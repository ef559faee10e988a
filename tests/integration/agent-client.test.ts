// The agent client end to end, driven exactly as an MCP host drives it: the built package started over stdio
// with the site's own config block, the SDK's client answering elicitation requests, the registry's real
// /api/mcp route on a real database, reference and lying paid servers, a local chain and facilitator.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { listingProbes, listings } from "@/db/schema";
import { toListingRow } from "@/lib/listings/write";
import { GET, OPTIONS, POST } from "@/app/api/mcp/route";
import { reloadEnv } from "@/lib/env";
import { clientConfig } from "@/lib/listings/presenters/connect-config";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server/server";
import type { PurchaseEvent } from "@agora-mcp/server";
import { openTestDatabase, type TestConnection } from "../support/databases";
import { startLyingServer, type LyingServer } from "../support/lying-server";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { serveRoute } from "../support/route-server";

const BIN = path.resolve("packages/client/dist/bin.js");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-client-e2e-"));

let stack: PaymentStack;
let reference: ReferenceServer;
let provider: `0x${string}`;
const events: PurchaseEvent[] = [];
let liars: Record<"wrong" | "silent" | "rise", LyingServer>;
let conn: TestConnection;
let registry: Awaited<ReturnType<typeof serveRoute>>;
let firstTransaction = "";
/** Everything any client process wrote (MCP messages and stderr), to look for keys in. */
const outputs: string[] = [];

type Host = {
  client: Client;
  address: `0x${string}`;
  key: string;
  walletFile: string;
  elicitations: string[];
  answers: ElicitResult[];
};

function importKey(walletFile: string, key: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "import-key"], {
      env: { ...process.env, ...env, AGORA_WALLET_FILE: walletFile },
    });
    let err = "";
    child.stdout.on("data", (d: Buffer) => outputs.push(d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => (outputs.push(err), code === 0 ? resolve() : reject(new Error(err))));
    child.stdin.end(key);
  });
}

async function startHost(
  name: string,
  { elicitation, usdc, env }: { elicitation: boolean; usdc: bigint; env: Record<string, string> },
): Promise<Host> {
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  const walletFile = path.join(tmp, name, ".agora-mcp", "wallet.json");
  // The env block exactly as the site's detail pages and guides print it, plus the local sandbox's addresses.
  const configured = clientConfig().mcpServers.agora!;
  expect(configured.args).toEqual(["-y", expect.stringMatching(/^http:\/\/[^/]+\/downloads\/agora-mcp-client\.tgz$/)]);
  const fullEnv = {
    ...configured.env,
    AGORA_REGISTRY_URL: `${registry.url}/api`,
    AGORA_RPC_URL: stack.chain.rpcUrl,
    AGORA_WALLET_FILE: walletFile,
    ...env,
  };
  await importKey(walletFile, key, fullEnv);
  if (usdc > 0n) await stack.chain.mintUsdc(address, usdc);
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN], env: fullEnv, stderr: "pipe" });
  transport.stderr?.on("data", (d: Buffer) => outputs.push(d.toString()));
  const client = new Client(
    { name: `host-${name}`, version: "1.0.0" },
    { capabilities: elicitation ? { elicitation: { form: {} } } : {} },
  );
  const host: Host = { client, address, key, walletFile, elicitations: [], answers: [] };
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      host.elicitations.push(request.params.message);
      return host.answers.shift() ?? { action: "decline" };
    });
  }
  await client.connect(transport);
  const relay = transport.onmessage!;
  transport.onmessage = (message) => (outputs.push(JSON.stringify(message)), relay(message));
  return host;
}

async function call(host: Host, name: string, args: Record<string, unknown>) {
  const result = (await host.client.callTool({ name, arguments: args })) as CallToolResult;
  // Tool answers are checked field by field with expect(); a loose type keeps those reads short.
  return {
    result,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    data: result.structuredContent as Record<string, any>,
    text: result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"),
  };
}

async function balances(buyer: `0x${string}`) {
  return { buyer: await stack.chain.usdcBalance(buyer), provider: await stack.chain.usdcBalance(provider) };
}

/** Orders of `itemId` delivered or under way (an asynchronous one reports pending, then delivered when its job ends). */
const delivered = (itemId: string) =>
  new Set(
    events
      .filter((e) => e.itemId === itemId && (e.outcome === "delivered" || e.outcome === "pending"))
      .map((e) => e.orderId),
  ).size;

/** The purchase attempts in the host's ledger (one JSON line each, next to its wallet). */
function ledgerLines(host: Host): string[] {
  // One ledger per wallet address and network (packages/client/src/settings.ts ledgerFileFor).
  const file = path.join(path.dirname(host.walletFile), `ledger-base-sepolia-${host.address.toLowerCase()}.jsonl`);
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

/** Everything a payment would change: both balances on chain, the host's ledger, and the purchases the paid server saw. */
async function trace(host: Host) {
  return { balances: await balances(host.address), ledger: ledgerLines(host).length, purchasesSeen: events.length };
}

beforeAll(async () => {
  stack = await startPaymentStack();
  provider = stack.freshAddress();
  reference = await startReferenceServer({
    port: 0,
    walletAddress: provider,
    facilitatorUrl: stack.facilitator.url,
    jobSeconds: 1,
    onPurchase: (e) => events.push(e),
  });
  liars = {
    wrong: await startLyingServer("wrong-transaction", {
      facilitatorUrl: stack.facilitator.url,
      payTo: stack.freshAddress(),
      otherTransaction: () => firstTransaction,
    }),
    silent: await startLyingServer("no-delivery", {
      facilitatorUrl: stack.facilitator.url,
      payTo: stack.freshAddress(),
    }),
    rise: await startLyingServer("price-rise", { facilitatorUrl: stack.facilitator.url, payTo: stack.freshAddress() }),
  };
  conn = await openTestDatabase("pglite");
  setDatabase(conn);
  process.env.RATE_LIMIT_DISABLED = "1";
  reloadEnv();
  const row = (name: string, slug: string, serverUrl: string, price: number) =>
    toListingRow({
      name,
      slug,
      description: `${name}: a paid MCP server for tests.`,
      categories: ["AI"],
      serverUrl,
      status: "approved",
      price,
    });
  await conn.db.insert(listings).values([
    row("Reference Weather", "reference-weather", reference.url, 0.01),
    row("Wrong Receipts", "wrong-receipts", liars.wrong.url, 0.01),
    row("Silent Taker", "silent-taker", liars.silent.url, 0.01),
    row("Rising Prices", "rising-prices", liars.rise.url, 0.01),
    // Found in the MCP Registry, not submitted here: search_servers' source filter tells it apart.
    {
      ...row("Imported Atlas", "imported-atlas", "https://atlas.invalid/mcp", 0.02),
      source: "mcp-registry",
      upstreamName: "io.github.atlas/atlas",
    },
  ]);
  registry = await serveRoute({ POST, GET, OPTIONS });
});

afterAll(async () => {
  await registry?.close();
  await conn?.close();
  for (const liar of Object.values(liars ?? {})) await liar.close();
  await reference?.close();
  await stack?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("a host that supports elicitation", () => {
  let host: Host;
  beforeAll(async () => {
    // Threshold $0.10: $0.01 goes through, $0.25 asks, and $0.10 (exactly at it) asks too.
    host = await startHost("alice", {
      elicitation: true,
      usdc: 1_000_000n,
      env: { AGORA_MAX_PER_PURCHASE: "0.30", AGORA_DAILY_CAP: "1.00", ELICITATION_THRESHOLD: "0.10" },
    });
  });
  afterAll(() => host?.client.close());

  it("lists its tools with input and output schemas", async () => {
    const { tools } = await host.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "check_job",
      "close_channel",
      "explore_server",
      "purchase",
      "review",
      "revoke_review",
      "search_servers",
      "wallet",
    ]);
    for (const tool of tools) expect(tool.outputSchema?.type).toBe("object");
  });

  it("searches the registry and explores a paid server", async () => {
    const found = await call(host, "search_servers", { query: "weather" });
    expect(found.data.servers).toEqual([
      expect.objectContaining({ slug: "reference-weather", serverUrl: reference.url }),
    ]);
    const explored = await call(host, "explore_server", { server: "reference-weather" });
    expect(explored.data.payTo).toBe(provider);
    expect(explored.data.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: "weather-now",
          priceUsd: "0.01",
          params: { city: "Example: Lisbon" },
          payable: true,
        }),
        expect.objectContaining({ id: "market-report", priceUsd: "0.25", payable: true }),
        expect.objectContaining({ id: "page-screenshot", priceUsd: "0.00" }),
      ]),
    );
    expect(explored.data.x402Tools).toEqual([
      expect.objectContaining({ name: "weather", priceUsd: "0.01" }),
      expect.objectContaining({ name: "market-report", priceUsd: "0.25" }),
      expect.objectContaining({ name: "logo-render", priceUsd: "0.10" }),
    ]);
  });

  it("asks the registry for every filter and sort the site offers (source, purchased)", async () => {
    const imported = await call(host, "search_servers", { source: "mcp-registry" });
    expect(imported.result.isError).toBeFalsy();
    expect(imported.data.servers.map((s: { slug: string }) => s.slug)).toEqual(["imported-atlas"]);
    const submitted = await call(host, "search_servers", { source: "agora", sort: "name" });
    expect(submitted.data.servers.map((s: { slug: string }) => s.slug)).toEqual([
      "reference-weather",
      "rising-prices",
      "silent-taker",
      "wrong-receipts",
    ]);
    // No sales on chain yet: most purchased falls back to verified, then name order.
    const purchased = await call(host, "search_servers", { sort: "purchased", source: "agora" });
    expect(purchased.result.isError).toBeFalsy();
    expect(purchased.data.servers).toHaveLength(4);
    // No test purchases yet: no server has evidence of delivering, so a least delivery rate leaves every one out.
    const delivering = await call(host, "search_servers", { source: "agora", minDeliveryRate: 0.5 });
    expect(delivering.data.servers).toEqual([]);
    expect(delivering.text).toContain(
      "4 on this page left out: they delivered less than 50% of their purchases in 30 days (the registry's test purchases and buyers' signed receipts), or have none.",
    );
  });

  it("gets a free item with nothing signed or paid", async () => {
    const before = await balances(host.address);
    const asked = host.elicitations.length;
    const got = await call(host, "purchase", {
      server: "reference-weather",
      item: "page-screenshot",
      params: { url: "https://example.com" },
    });
    expect(got.data).toMatchObject({ status: "free", signed: false, result: expect.stringContaining("screenshot-") });
    expect(await balances(host.address)).toEqual(before);
    expect(host.elicitations).toHaveLength(asked);
  });

  it("buys a cheap item without asking, and the chain moves exactly its price", async () => {
    const before = await balances(host.address);
    const [asked, sold] = [host.elicitations.length, delivered("weather-now")];
    const got = await call(host, "purchase", {
      server: "reference-weather",
      item: "weather-now",
      params: { city: "Lisbon" },
    });
    expect(got.data).toMatchObject({
      status: "delivered",
      code: "delivered",
      signed: true,
      priceUsd: "$0.01",
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(got.text).toContain("Lisbon");
    // Sold both ways, bought through its x402 tool: settled only after it succeeded.
    expect(got.text).toContain("checked on chain, settled after the tool succeeded");
    expect(await balances(host.address)).toEqual({
      buyer: before.buyer - 10_000n,
      provider: before.provider + 10_000n,
    });
    expect(host.elicitations).toHaveLength(asked);
    expect(delivered("weather-now")).toBe(sold + 1);
  });

  it("asks at or above the threshold; declining pays nothing, accepting pays exactly the price", async () => {
    const before = await balances(host.address);
    const [asked, sold] = [host.elicitations.length, delivered("market-report")];
    host.answers.push({ action: "decline" });
    const declined = await call(host, "purchase", {
      server: "reference-weather",
      item: "market-report",
      params: { segment: "solar" },
    });
    expect(declined.data).toMatchObject({ status: "declined", signed: false });
    expect(host.elicitations.at(-1)).toMatch(
      /Pay \$0\.25 USDC on the local chain \(answering as Base Sepolia\) to Reference Weather for "Market report"\? You pay only if the tool succeeds\./,
    );
    expect(host.elicitations.at(-1)).toMatch(
      /It uses \$0\.25 of the \$[\d.]+ left in the budget of \$1\.00 a day \(UTC\) \(budgets\.day \(AGORA_DAILY_CAP\)\)\./,
    );
    expect(host.elicitations).toHaveLength(asked + 1);
    expect(await balances(host.address)).toEqual(before);
    expect(delivered("market-report")).toBe(sold);

    host.answers.push({ action: "accept", content: { approve: true } });
    const bought = await call(host, "purchase", {
      server: "reference-weather",
      item: "market-report",
      params: { segment: "solar" },
    });
    expect(bought.data).toMatchObject({ status: "delivered", priceUsd: "$0.25" });
    expect(host.elicitations).toHaveLength(asked + 2);
    expect(await balances(host.address)).toEqual({
      buyer: before.buyer - 250_000n,
      provider: before.provider + 250_000n,
    });
    expect(delivered("market-report")).toBe(sold + 1);
  });

  it("buys an asynchronous item and collects it later with the wallet that paid", async () => {
    const before = await balances(host.address);
    const [asked, sold] = [host.elicitations.length, delivered("logo-render")];
    host.answers.push({ action: "accept", content: { approve: true } });
    const bought = await call(host, "purchase", {
      server: "reference-weather",
      item: "logo-render",
      params: { brief: "a fox" },
    });
    expect(bought.data).toMatchObject({ status: "job-pending", jobId: expect.any(String), checkAfterSeconds: 1 });
    expect(host.elicitations).toHaveLength(asked + 1);
    // An asynchronous item is bought through make-purchase: its confirmation says the payment comes first.
    expect(host.elicitations.at(-1)).toMatch(
      /Pay \$0\.10 USDC on the local chain \(answering as Base Sepolia\) to Reference Weather for "Logo render"\? Payment is taken before the tool runs\./,
    );
    expect(await balances(host.address)).toEqual({
      buyer: before.buyer - 100_000n,
      provider: before.provider + 100_000n,
    });
    let job = await call(host, "check_job", { jobId: bought.data.jobId });
    for (let i = 0; i < 20 && job.data.status === "pending"; i++) {
      await new Promise((r) => setTimeout(r, 250));
      job = await call(host, "check_job", { jobId: bought.data.jobId });
    }
    expect(job.data).toMatchObject({ status: "done", result: { brief: "a fox", size: "512x512" } });
    expect(delivered("logo-render")).toBe(sold + 1);
  });

  it("buys a tool sold through the x402 binding for MCP, checked on chain", async () => {
    const before = await balances(host.address);
    const sold = events.filter((e) => e.itemId === "weather-now" && e.outcome === "delivered").length;
    const got = await call(host, "purchase", {
      server: "reference-weather",
      item: "weather",
      params: { city: "Porto" },
    });
    expect(got.data).toMatchObject({
      status: "delivered",
      signed: true,
      priceUsd: "$0.01",
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(got.text).toContain("Porto");
    expect(await balances(host.address)).toEqual({
      buyer: before.buyer - 10_000n,
      provider: before.provider + 10_000n,
    });
    expect(events.filter((e) => e.itemId === "weather-now" && e.outcome === "delivered")).toHaveLength(sold + 1);
  });

  it("refuses missing parameters and unlisted URLs before signing", async () => {
    const before = await trace(host);
    expect(before.balances.buyer).toBeGreaterThanOrEqual(10_000n); // the wallet could pay: only the checks stop it
    const missing = await call(host, "purchase", { server: "reference-weather", item: "weather-now", params: {} });
    expect(missing.result.isError).toBe(true);
    expect(missing.data).toMatchObject({ status: "refused", signed: false, missingParams: ["city"] });
    expect(missing.text).toContain("city (Example: Lisbon)");
    // A URL the registry does not list (a listed one is that listing: client-review.test.ts).
    const direct = await call(host, "purchase", {
      server: `${new URL(reference.url).origin}/unlisted/mcp`,
      item: "weather-now",
      params: { city: "Oslo" },
    });
    expect(direct.data).toMatchObject({ status: "refused", signed: false });
    expect(direct.text).toMatch(/ENABLE_UNSAFE_DIRECT_ACCESS=true/);
    // Nothing signed: no attempt in the ledger, no purchase reached the server, not a unit moved either way.
    expect(await trace(host)).toEqual(before);
  });

  it("catches a server that names another transaction as its settlement", async () => {
    // The liar names a real earlier payment of this wallet (to the reference server) as the settlement of this one.
    const earlier = await call(host, "purchase", {
      server: "reference-weather",
      item: "weather-now",
      params: { city: "Faro" },
    });
    expect(earlier.data).toMatchObject({ status: "delivered", transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    firstTransaction = earlier.data.transaction;
    const got = await call(host, "purchase", { server: "wrong-receipts", item: "fact" });
    expect(got.result.isError).toBe(true);
    expect(got.data.status).toBe("disputed");
    expect(got.text).toMatch(
      /does not match the chain: transaction 0x[0-9a-f]{64} sent 10000 units from this wallet to someone other than the payee/,
    );
  });

  it("catches a server that takes the payment and delivers nothing", async () => {
    const before = await stack.chain.usdcBalance(host.address);
    const got = await call(host, "purchase", { server: "silent-taker", item: "fact" });
    expect(got.data.status).toBe("disputed");
    expect(got.text).toMatch(/took the payment of \$0\.01 but delivered nothing: Service temporarily unavailable/);
    expect(await stack.chain.usdcBalance(host.address)).toBe(before - 10_000n);
  });

  it("refuses a server that asks more than it listed", async () => {
    const explored = await call(host, "explore_server", { server: "rising-prices" });
    expect(explored.data.items[0].priceUsd).toBe("0.01");
    const before = await stack.chain.usdcBalance(host.address);
    const sold = liars.rise.delivered;
    const got = await call(host, "purchase", {
      server: "rising-prices",
      item: "fact",
      maxPriceUsd: explored.data.items[0].priceUsd,
    });
    expect(got.data).toMatchObject({ status: "refused", signed: false });
    expect(got.text).toMatch(/now asks \$0\.05 for "Fact", more than the \$0\.01 you expected/);
    expect(await stack.chain.usdcBalance(host.address)).toBe(before);
    expect(liars.rise.delivered).toBe(sold);
  });
});

describe("the wallet tool", () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost("carol", {
      elicitation: true,
      usdc: 1_000_000n,
      env: { AGORA_MAX_PER_PURCHASE: "0.30", AGORA_DAILY_CAP: "1.00", ELICITATION_THRESHOLD: "0.10" },
    });
  });
  afterAll(() => host?.client.close());

  it("shows the balance, today's spending and every purchase", async () => {
    // The wallet's own history, one purchase of each kind the ledger records.
    const buy = async (args: Record<string, unknown>) => (await call(host, "purchase", args)).data;
    expect(
      await buy({ server: "reference-weather", item: "page-screenshot", params: { url: "https://example.com" } }),
    ).toMatchObject({ status: "free" });
    expect(await buy({ server: "reference-weather", item: "weather-now", params: { city: "Lisbon" } })).toMatchObject({
      status: "delivered",
    });
    host.answers.push({ action: "decline" });
    expect(
      await buy({ server: "reference-weather", item: "market-report", params: { segment: "solar" } }),
    ).toMatchObject({ status: "declined" });
    host.answers.push({ action: "accept", content: { approve: true } });
    const bought = await buy({ server: "reference-weather", item: "logo-render", params: { brief: "a fox" } });
    expect(bought).toMatchObject({ status: "job-pending" });
    let job = await call(host, "check_job", { jobId: bought.jobId });
    for (let i = 0; i < 20 && job.data.status === "pending"; i++) {
      await new Promise((r) => setTimeout(r, 250));
      job = await call(host, "check_job", { jobId: bought.jobId });
    }
    expect(job.data.status).toBe("done");
    expect(await buy({ server: "reference-weather", item: "weather", params: { city: "Porto" } })).toMatchObject({
      status: "delivered",
    });
    expect(await buy({ server: "silent-taker", item: "fact" })).toMatchObject({ status: "disputed" });

    const wallet = await call(host, "wallet", {});
    // The anvil chain on loopback is named as the local chain, with no public faucet or explorer to send anyone to.
    expect(wallet.data).toMatchObject({
      address: host.address,
      network: `the local chain at ${stack.chain.rpcUrl} (answering as Base Sepolia)`,
      localChain: true,
      dailyCap: "1.00",
    });
    // 0.01 + 0.10 + 0.01 bought, 0.01 taken by the liar; the free and the declined item cost nothing.
    expect(wallet.data.spentToday).toBe("0.13");
    expect(wallet.data.usdc).toBe("0.87");
    expect(wallet.data.recentPurchases.map((p: { status: string }) => p.status)).toEqual([
      "disputed",
      "paid",
      "job-done",
      "declined",
      "paid",
      "free",
    ]);
    expect(wallet.text).toMatch(/only that chain holds it, so no public faucet or explorer will show it/);
    expect(wallet.text).not.toMatch(/faucet\.circle\.com|basescan/);
  });
});

describe("a host without elicitation, with tight limits", () => {
  // Listed only now, so the searches above see the four servers they expect: a server that names another payee
  // from its second quote on, and one whose latest check in the registry read $0.01 to its own wallet.
  const later = {} as { swap: LyingServer; swapTo: `0x${string}`; rising: LyingServer };
  beforeAll(async () => {
    later.swapTo = stack.freshAddress();
    later.swap = await startLyingServer("payee-swap", {
      facilitatorUrl: stack.facilitator.url,
      payTo: stack.freshAddress(),
      otherPayTo: later.swapTo,
    });
    later.rising = await startLyingServer("price-rise", {
      facilitatorUrl: stack.facilitator.url,
      payTo: stack.freshAddress(),
    });
    const row = (name: string, slug: string, serverUrl: string) =>
      toListingRow({
        name,
        slug,
        description: `${name}: a paid MCP server for tests.`,
        categories: ["AI"],
        serverUrl,
        status: "approved",
        price: 0.01,
      });
    const [, rising] = await conn.db
      .insert(listings)
      .values([
        row("Swapping Payee", "swapping-payee", later.swap.url),
        row("Rising Listed", "rising-listed", later.rising.url),
      ])
      .returning({ id: listings.id });
    await conn.db.insert(listingProbes).values({
      listingId: rising!.id,
      serverUrl: later.rising.url,
      reachable: true,
      verifiable: true,
      pricedItems: [{ id: "fact", name: "Fact", amount: 0.01, currency: "USDC", paymentMethod: "USDC_BASE_SEPOLIA" }],
      paymentMethods: [{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: later.rising.payTo }],
    } as never);
  });
  afterAll(async () => {
    await later.swap?.close();
    await later.rising?.close();
  });
  // Each test starts from the same fresh wallet: $0.05, at most $0.10 a purchase and $0.10 a day.
  let host: Host;
  let hosts = 0;
  beforeEach(async () => {
    host = await startHost(`bob-${++hosts}`, {
      elicitation: false,
      usdc: 50_000n,
      env: { AGORA_MAX_PER_PURCHASE: "0.10", AGORA_DAILY_CAP: "0.10" },
    });
  });
  afterEach(() => host?.client.close());

  /** Spends the whole daily cap: the two-step confirmation of a $0.10 job. */
  async function spendTheCap() {
    await stack.chain.mintUsdc(host.address, 70_000n);
    const args = { server: "reference-weather", item: "logo-render", params: { brief: "owl" } };
    const asked = await call(host, "purchase", args);
    expect(asked.data.status).toBe("confirmation-required");
    expect((await call(host, "purchase", { ...args, confirmationId: asked.data.confirmationId })).data).toMatchObject({
      status: "job-pending",
      signed: true,
    });
  }

  it("refuses above the balance and above the per-purchase maximum without signing", async () => {
    const before = await trace(host);
    const poor = await call(host, "purchase", {
      server: "reference-weather",
      item: "logo-render",
      params: { brief: "owl" },
    });
    expect(poor.data).toMatchObject({ status: "refused", signed: false });
    expect(poor.text).toMatch(/costs \$0\.10 but the wallet holds \$0\.05 USDC/);
    const dear = await call(host, "purchase", {
      server: "reference-weather",
      item: "market-report",
      params: { segment: "tea" },
    });
    expect(dear.data).toMatchObject({ status: "refused", signed: false });
    expect(dear.data).toMatchObject({ rule: "maxPerPurchase" });
    expect(dear.text).toMatch(
      /rule maxPerPurchase \(AGORA_MAX_PER_PURCHASE\): "market-report" costs \$0\.25, above the maximum of \$0\.10 a purchase\. Nothing was signed/,
    );
    expect(await stack.chain.usdcBalance(host.address)).toBe(50_000n);
    expect(await trace(host)).toEqual(before);
  });

  it("asks for a two-step confirmation, bound to one purchase and usable once", async () => {
    await stack.chain.mintUsdc(host.address, 70_000n);
    const args = { server: "reference-weather", item: "logo-render", params: { brief: "owl" } };
    const first = await call(host, "purchase", args);
    expect(first.data).toMatchObject({
      status: "confirmation-required",
      signed: false,
      confirmationId: expect.stringMatching(/^conf_/),
    });
    const otherParams = await call(host, "purchase", {
      ...args,
      params: { brief: "cat" },
      confirmationId: first.data.confirmationId,
    });
    expect(otherParams.data.status).toBe("confirmation-required");
    const again = await call(host, "purchase", args);
    const paid = await call(host, "purchase", { ...args, confirmationId: again.data.confirmationId });
    expect(paid.data).toMatchObject({ status: "job-pending", signed: true });
    const replay = await call(host, "purchase", { ...args, confirmationId: again.data.confirmationId });
    expect(replay.data.status).not.toBe("job-pending");
    expect(await stack.chain.usdcBalance(host.address)).toBe(20_000n);
  });

  it("asks again, naming both payees, when the server names another payee after the person confirmed", async () => {
    const args = { server: "swapping-payee", item: "fact" };
    const first = await call(host, "purchase", args);
    expect(first.data).toMatchObject({ status: "confirmation-required", signed: false, payTo: later.swap.payTo });
    const before = await trace(host);
    const second = await call(host, "purchase", { ...args, confirmationId: first.data.confirmationId });
    expect(second.data).toMatchObject({ status: "confirmation-required", signed: false, payTo: later.swapTo });
    expect(second.text).toContain(
      `The terms changed since the person confirmed: they were shown $0.01 to ${later.swap.payTo}; the server now asks $0.01 to ${later.swapTo}.`,
    );
    expect(await trace(host)).toEqual(before);
    expect(later.swap.settled).toBe(0);
  });

  it("refuses a server asking more than its listing in the registry shows, naming both prices", async () => {
    // The liar lists $0.01 the first time (explore_server) and $0.05 afterwards (the purchase's own quote).
    expect((await call(host, "explore_server", { server: "rising-listed" })).data.items[0].priceUsd).toBe("0.01");
    const before = await trace(host);
    const got = await call(host, "purchase", { server: "rising-listed", item: "fact" });
    expect(got.result.isError).toBe(true);
    expect(got.data).toMatchObject({ status: "drift", signed: false, priceUsd: "$0.05" });
    expect(got.text).toContain(
      'Rising Listed does not sell on the terms its listing shows: it now asks $0.05 for "Fact", more than the $0.01 its Agora listing shows. Nothing was signed or paid.',
    );
    expect(await trace(host)).toEqual(before);
    expect(later.rising.settled).toBe(0);
  });

  it("refuses above the daily budget without signing, naming the rule and what is left", async () => {
    await spendTheCap();
    const before = await trace(host);
    const capped = await call(host, "purchase", {
      server: "reference-weather",
      item: "weather-now",
      params: { city: "Oslo" },
    });
    expect(capped.data).toMatchObject({ status: "refused", signed: false });
    expect(capped.data).toMatchObject({ rule: "budgets.day" });
    expect(capped.text).toMatch(
      /rule budgets\.day \(AGORA_DAILY_CAP\): "weather-now" costs \$0\.01, but the budget of \$0\.10 a day \(UTC\) has \$0\.00 left \(\$0\.10 spent\)\. Nothing was signed/,
    );
    expect(await stack.chain.usdcBalance(host.address)).toBe(20_000n);
    expect(await trace(host)).toEqual(before);
  });
});

describe("an unattended agent set up as the agent-frameworks guide shows", () => {
  /** The `env` entries of the guide's stdio snippet (the SDK's default environment aside). */
  function guideEnv(): Record<string, string> {
    const guide = fs.readFileSync("content/guides/setup-and-usage.mdx", "utf8");
    const section = guide.slice(guide.indexOf("## Interfacing with agent frameworks"));
    const block = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const env = /env: \{([\s\S]*?)\n {2}\}/.exec(block)![1]!;
    return Object.fromEntries([...env.matchAll(/^\s*([A-Z_]+): "([^"]*)"/gm)].map((m) => [m[1]!, m[2]!]));
  }

  it("pays without asking, within the cap the snippet sets, from a host that cannot elicit", async () => {
    const env = guideEnv();
    expect(env).toMatchObject({ ENABLE_REQUEST_ELICITATION: "false" });
    // The registry is this test's; everything else as the snippet sets it.
    const host = await startHost("erin", {
      elicitation: false,
      usdc: 50_000n,
      env: { ...env, AGORA_REGISTRY_URL: `${registry.url}/api` },
    });
    try {
      const bought = await call(host, "purchase", {
        server: "reference-weather",
        item: "weather-now",
        params: { city: "Oslo" },
      });
      expect(bought.data).toMatchObject({ status: "delivered", signed: true });
      const wallet = await call(host, "wallet", {});
      expect(wallet.data.policy.rules).toContain(
        "confirmation is off (ENABLE_REQUEST_ELICITATION=false): every purchase within these rules is paid without asking",
      );
      expect(wallet.data.dailyCap).toBe(env.AGORA_DAILY_CAP);
    } finally {
      await host.client.close();
    }
  });
});

describe("the private keys", () => {
  it("never appear in any message, log line or ledger of the whole run", async () => {
    // At least this host's import, start and paid purchase are in the run, whichever tests ran before.
    const host = await startHost("dana", { elicitation: true, usdc: 10_000n, env: { ELICITATION_THRESHOLD: "0.10" } });
    const bought = await call(host, "purchase", {
      server: "reference-weather",
      item: "weather-now",
      params: { city: "Oslo" },
    });
    await host.client.close();
    expect(bought.data.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(ledgerLines(host).join("\n")).toContain(bought.data.transaction);
    const keys = outputs.join("\n").toLowerCase();
    const ledgers = fs
      .readdirSync(tmp, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => fs.readFileSync(path.join(tmp, f), "utf8"))
      .join("\n")
      .toLowerCase();
    expect(keys).toContain(bought.data.transaction);
    expect(ledgers).toContain(bought.data.transaction);
    for (const file of fs
      .readdirSync(tmp, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith("wallet.json"))) {
      const key = JSON.parse(fs.readFileSync(path.join(tmp, file), "utf8"))
        .privateKey.slice(2)
        .toLowerCase();
      expect(keys).not.toContain(key);
      expect(ledgers).not.toContain(key);
    }
  });
});
