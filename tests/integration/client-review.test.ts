// The agent client's review tool end to end: the built client over stdio buys from the reference server on a
// local chain, then reviews it; the person is asked through elicitation, and the registry's real routes check
// the signed review against the chain before storing it.
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
import { buyerReviews } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server/server";
import { openTestDatabase, type TestConnection } from "../support/databases";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { serveRoute } from "../support/route-server";

const BIN = path.resolve("packages/client/dist/bin.js");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-client-review-"));

let stack: PaymentStack;
let reference: ReferenceServer;
let conn: TestConnection;
let registry: Awaited<ReturnType<typeof serveRoute>>;
let client: Client;
let address: `0x${string}`;
const elicitations: string[] = [];
const answers: ElicitResult[] = [];

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { data: result.structuredContent as Record<string, unknown>, text: result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n") };
}

beforeAll(async () => {
  stack = await startPaymentStack();
  reference = await startReferenceServer({ port: 0, walletAddress: stack.freshAddress(), facilitatorUrl: stack.facilitator.url, jobSeconds: 1 });
  conn = await openTestDatabase("pglite");
  setDatabase(conn);
  process.env.RATE_LIMIT_DISABLED = "1";
  process.env.CHAIN_RPC_URLS = `eip155:84532=${stack.chain.rpcUrl}`;
  // Reviewed as soon as mined (buyer-review-confirmations.test.ts covers the depth).
  process.env.SALES_CONFIRMATIONS = "0";
  reloadEnv();
  const listing = await insertListing(conn.db, { name: "Reference Weather", slug: "reference-weather", description: "Weather for tests.", categories: ["Data"], serverUrl: reference.url, status: "approved" });
  await checkListing(conn.db, listing.id, { allowPrivateHosts: true });
  // The site's API on one origin: the MCP endpoint and the buyer-review endpoint.
  registry = await serveRoute({
    GET: mcpGet,
    POST: (request) => (new URL(request.url).pathname === "/api/buyer-reviews" ? postReview(request) : mcpPost(request)),
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
}, 120_000);

afterAll(async () => {
  await client?.close();
  await registry?.close();
  await conn?.close();
  await reference?.close();
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
    const bought = await call("purchase", { server: "reference-weather", item: "weather-now", params: { city: "Lisbon" } });
    expect(bought.data).toMatchObject({ status: "delivered" });
    const transaction = bought.data.transaction as string;

    const declined = await call("review", { server: "reference-weather", rating: 4, text: "Accurate <b>and</b> quick." });
    expect(declined.data).toMatchObject({ status: "declined", transaction });
    expect(elicitations.at(-1)).toContain(`Post this review of Reference Weather from wallet ${address} (purchase ${transaction})? 4 of 5 stars: "Accurate <b>and</b> quick."`);
    expect(await conn.db.select().from(buyerReviews)).toHaveLength(0);

    answers.push({ action: "accept", content: { approve: true } });
    const posted = await call("review", { server: "reference-weather", rating: 4, text: "Accurate <b>and</b> quick." });
    expect(posted.data, posted.text).toMatchObject({ status: "posted", transaction, reviewId: expect.any(String) });
    const rows = await conn.db.select().from(buyerReviews);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ payer: address, amount: "10000", rating: 4, text: "Accurate <b>and</b> quick.", txHash: transaction.toLowerCase() });

    answers.push({ action: "accept", content: { approve: true } });
    const again = await call("review", { server: "reference-weather", rating: 1, text: "Again" });
    expect(again.data).toMatchObject({ status: "refused" });
    expect(again.text).toMatch(/The registry refused the review \(409\): This sale .* already has a review/);
  });
});
