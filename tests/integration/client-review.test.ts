// The agent client's review and revoke_review tools end to end: the built client over stdio buys from the reference
// server on a local chain, then reviews it and withdraws the review; the person is asked through elicitation (or, on
// a host without it, by a confirmation id), and the registry's real routes check each signature and the sale.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as mcpGet, POST as mcpPost } from "@/app/api/mcp/route";
import { POST as postReview } from "@/app/api/buyer-reviews/route";
import { POST as postRevoke } from "@/app/api/buyer-reviews/revoke/route";
import { eq } from "drizzle-orm";
import { buyerReviews } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server/server";
import { openTestDatabase, type TestConnection } from "../support/databases";
import { startFieldServer, type FieldServer, type FieldStyle } from "../support/field-servers";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { serveRoute } from "../support/route-server";

const BIN = path.resolve("packages/client/dist/bin.js");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-client-review-"));

let stack: PaymentStack;
let reference: ReferenceServer;
/** Servers built with other libraries, listed through the site: one whose tools/list is silent (its owner named the paid tool), one on x402 version 1. */
const FIELD: { style: FieldStyle; slug: string; silent: boolean }[] = [
  { style: "x402-mcp-v2", slug: "field-transport", silent: true },
  { style: "vercel-x402-mcp", slug: "field-vercel", silent: false },
];
const fieldServers = new Map<FieldStyle, FieldServer>();
let conn: TestConnection;
let registry: Awaited<ReturnType<typeof serveRoute>>;
let client: Client;
let clientEnv: Record<string, string>;
let address: `0x${string}`;
const elicitations: string[] = [];
const answers: ElicitResult[] = [];

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    data: result.structuredContent as Record<string, unknown>,
    text: result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"),
  };
}

beforeAll(async () => {
  stack = await startPaymentStack();
  reference = await startReferenceServer({
    port: 0,
    walletAddress: stack.freshAddress(),
    facilitatorUrl: stack.facilitator.url,
    jobSeconds: 1,
  });
  conn = await openTestDatabase("pglite");
  setDatabase(conn);
  process.env.RATE_LIMIT_DISABLED = "1";
  process.env.CHAIN_RPC_URLS = `eip155:84532=${stack.chain.rpcUrl}`;
  // Reviewed as soon as mined (buyer-review-confirmations.test.ts covers the depth).
  process.env.SALES_CONFIRMATIONS = "0";
  reloadEnv();
  const listing = await insertListing(conn.db, {
    name: "Reference Weather",
    slug: "reference-weather",
    description: "Weather for tests.",
    categories: ["Data"],
    serverUrl: reference.url,
    status: "approved",
  });
  await checkListing(conn.db, listing.id, { allowPrivateHosts: true });
  for (const { style, slug, silent } of FIELD) {
    const server = await startFieldServer(style, {
      facilitatorUrl: stack.facilitator.url,
      payTo: stack.freshAddress(),
    });
    fieldServers.set(style, server);
    const field = await insertListing(conn.db, {
      name: `Forecasts (${style})`,
      slug,
      description: "Forecasts from a server built with another library.",
      categories: ["Data"],
      serverUrl: server.url,
      status: "approved",
      ...(silent ? { paidTools: [server.paidTool], paidToolsConsentedAt: new Date() } : {}),
    });
    await checkListing(conn.db, field.id, { allowPrivateHosts: true });
  }
  // The site's API on one origin: the MCP endpoint and the buyer-review endpoint.
  registry = await serveRoute({
    GET: mcpGet,
    POST: (request) => {
      const route =
        { "/api/buyer-reviews": postReview, "/api/buyer-reviews/revoke": postRevoke }[new URL(request.url).pathname] ??
        mcpPost;
      return route(request);
    },
  });

  const key = generatePrivateKey();
  address = privateKeyToAccount(key).address;
  const walletFile = path.join(tmp, ".agora-mcp", "wallet.json");
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    AGORA_REGISTRY_URL: `${registry.url}/api`,
    AGORA_RPC_URL: stack.chain.rpcUrl,
    AGORA_WALLET_FILE: walletFile,
    ELICITATION_THRESHOLD: "0.10",
  };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "import-key"], { env: env as NodeJS.ProcessEnv });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`import-key exited ${code}`))));
    child.stdin.end(key);
  });
  await stack.chain.mintUsdc(address, 1_000_000n);
  client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicitations.push(request.params.message);
    return answers.shift() ?? { action: "decline" };
  });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN], env, stderr: "ignore" }));
  clientEnv = env;
}, 120_000);

afterAll(async () => {
  await client?.close();
  await registry?.close();
  await conn?.close();
  await reference?.close();
  for (const server of fieldServers.values()) await server.close();
  await stack?.stop();
  delete process.env.CHAIN_RPC_URLS;
  delete process.env.SALES_CONFIRMATIONS;
  reloadEnv();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the client's review tool", () => {
  it("refuses to review a server this wallet never paid, signing nothing", async () => {
    const got = await call("review", { server: "reference-weather", rating: 5, text: "Great" });
    expect(got.data).toMatchObject({ status: "refused" });
    expect(got.text).toMatch(/no paid purchase from Reference Weather/);
    expect(elicitations).toHaveLength(0);
    expect(await conn.db.select().from(buyerReviews)).toHaveLength(0);
  });

  it("after a purchase, asks the person; a no sends nothing, a yes posts a review the registry verified on chain", async () => {
    const bought = await call("purchase", {
      server: "reference-weather",
      item: "weather-now",
      params: { city: "Lisbon" },
    });
    expect(bought.data).toMatchObject({ status: "delivered" });
    const transaction = bought.data.transaction as string;

    const declined = await call("review", {
      server: "reference-weather",
      rating: 4,
      text: "Accurate <b>and</b> quick.",
    });
    expect(declined.data).toMatchObject({ status: "declined", transaction });
    expect(elicitations.at(-1)).toContain(
      `Post this review of Reference Weather from wallet ${address} (purchase ${transaction})? 4 of 5 stars: "Accurate <b>and</b> quick."`,
    );
    expect(await conn.db.select().from(buyerReviews)).toHaveLength(0);

    answers.push({ action: "accept", content: { approve: true } });
    const posted = await call("review", { server: "reference-weather", rating: 4, text: "Accurate <b>and</b> quick." });
    expect(posted.data, posted.text).toMatchObject({ status: "posted", transaction, reviewId: expect.any(String) });
    const rows = await conn.db.select().from(buyerReviews);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      payer: address,
      amount: "10000",
      rating: 4,
      text: "Accurate <b>and</b> quick.",
      txHash: transaction.toLowerCase(),
    });

    answers.push({ action: "accept", content: { approve: true } });
    const again = await call("review", { server: "reference-weather", rating: 1, text: "Again" });
    expect(again.data).toMatchObject({ status: "refused" });
    expect(again.text).toMatch(/The registry refused the review \(409\): This sale .* already has a review/);
  });

  it("withdraws the wallet's own review once the person agrees; a no keeps it; a second withdrawal is refused", async () => {
    const [posted] = await conn.db.select().from(buyerReviews);
    const declined = await call("revoke_review", { server: "reference-weather" });
    expect(declined.data).toMatchObject({ status: "declined", transaction: expect.any(String) });
    expect(elicitations.at(-1)).toMatch(
      new RegExp(
        `^Withdraw this wallet's \\(${address}\\) review of Reference Weather for purchase 0x[0-9a-fA-F]{64}\\?`,
      ),
    );
    expect((await conn.db.select().from(buyerReviews))[0]!.revokedAt).toBeNull();

    answers.push({ action: "accept", content: { approve: true } });
    const revoked = await call("revoke_review", { server: "reference-weather" });
    expect(revoked.data, revoked.text).toMatchObject({ status: "revoked", reviewId: posted!.id });
    expect((await conn.db.select().from(buyerReviews))[0]!.revokedAt).toBeInstanceOf(Date);

    answers.push({ action: "accept", content: { approve: true } });
    const again = await call("revoke_review", { server: "reference-weather" });
    expect(again.data).toMatchObject({ status: "refused" });
    expect(again.text).toMatch(/The registry refused the revocation \(409\): This review is already revoked/);
  });

  it("on a host without elicitation, withdraws only with the confirmation id the first call gave, for that purchase", async () => {
    const bought = await call("purchase", {
      server: "reference-weather",
      item: "weather-now",
      params: { city: "Porto" },
    });
    expect(bought.data).toMatchObject({ status: "delivered" });
    const transaction = bought.data.transaction as string;
    answers.push({ action: "accept", content: { approve: true } });
    expect(
      (await call("review", { server: "reference-weather", rating: 2, text: "Slow today.", transaction })).data,
    ).toMatchObject({ status: "posted" });

    // The same wallet from a host that cannot elicit.
    const plain = new Client({ name: "plain-host", version: "1.0.0" });
    await plain.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN], env: clientEnv, stderr: "ignore" }),
    );
    try {
      const callPlain = async (args: Record<string, unknown>) =>
        (await plain.callTool({ name: "revoke_review", arguments: args })).structuredContent as Record<string, unknown>;
      const first = await callPlain({ server: "reference-weather", transaction });
      expect(first).toMatchObject({
        status: "confirmation-required",
        transaction,
        confirmationId: expect.stringMatching(/^conf_/),
      });
      expect(first.message).toContain(
        `call revoke_review again with the same server and transaction and confirmationId "${first.confirmationId as string}"`,
      );
      expect(
        await callPlain({ server: "reference-weather", transaction, confirmationId: "conf_000000000000000000000000" }),
      ).toMatchObject({ status: "confirmation-required" });
      const second = await callPlain({ server: "reference-weather", transaction });
      expect(
        await callPlain({ server: "reference-weather", transaction, confirmationId: second.confirmationId }),
      ).toMatchObject({ status: "revoked", transaction });
    } finally {
      await plain.close();
    }
    const rows = await conn.db.select().from(buyerReviews);
    expect(rows.find((r) => r.txHash === transaction.toLowerCase())?.revokedAt).toBeInstanceOf(Date);
  });
});

describe("reviews of servers built with other libraries, reached through the registry", () => {
  it.each(FIELD)(
    "$style: bought by its listing's slug, then reviewed with a signature the registry checks against the sale",
    async ({ style, slug }) => {
      const server = fieldServers.get(style)!;
      const bought = await call("purchase", { server: slug, item: server.paidTool, params: { city: "Lisbon" } });
      expect(bought.data, bought.text).toMatchObject({ status: "delivered" });
      const transaction = bought.data.transaction as string;
      expect(server.counts).toEqual({ paidRuns: 1, freeCalls: 0 });

      answers.push({ action: "accept", content: { approve: true } });
      const posted = await call("review", { server: slug, rating: 5, text: "Right on the day." });
      expect(posted.data, posted.text).toMatchObject({ status: "posted", transaction });
      const rows = await conn.db.select().from(buyerReviews).where(eq(buyerReviews.txHash, transaction.toLowerCase()));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ payer: address, amount: "10000", rating: 5 });
    },
  );
});

describe("a server built with another library, named by its URL", () => {
  it("is the registry's listing of that URL: explore_server shows its owner-named tool as paid, and purchase buys it without direct access", async () => {
    const server = fieldServers.get("x402-mcp-v2")!;
    expect(clientEnv.ENABLE_UNSAFE_DIRECT_ACCESS).toBeUndefined();
    const explored = await call("explore_server", { server: server.url });
    expect(explored.text).toContain("Forecasts (x402-mcp-v2)");
    expect(JSON.stringify(explored.data)).toContain(server.paidTool);
    const runs = server.counts.paidRuns;
    const bought = await call("purchase", { server: server.url, item: server.paidTool, params: { city: "Porto" } });
    expect(bought.data, bought.text).toMatchObject({
      status: "delivered",
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(server.counts).toEqual({ paidRuns: runs + 1, freeCalls: 0 });
  });
});
