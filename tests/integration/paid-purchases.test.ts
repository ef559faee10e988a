// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// Paid purchases end to end on a real local chain: the provider kit verifies and settles each x402 payment
// through a real facilitator before it delivers, and refuses every bad payment without moving money.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { signMessage } from "viem/accounts";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BASE_MAINNET,
  BASE_SEPOLIA,
  buildRequirements,
  encodePaymentV1,
  jobStatusMessage,
  readPaymentRequired,
  readPurchaseResult,
  readSettlementResponse,
  type PaymentRequirementsV1,
  type PaymentRequirementsV2,
} from "@agora-mcp/protocol";
import { createMonetizedServer, type PurchaseEvent, type RunningServer } from "@agora-mcp/server";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

let stack: PaymentStack;
let server: RunningServer;
let provider: `0x${string}`;
let client: Client;
const delivered: string[] = [];
const events: PurchaseEvent[] = [];
let releaseJob: () => void = () => {};

const PRICE = 20_000n; // $0.02

beforeAll(async () => {
  stack = await startPaymentStack();
  provider = stack.freshAddress();
  const kit = createMonetizedServer({
    name: "test-provider",
    walletAddress: provider,
    facilitatorUrl: stack.facilitator.url,
    facilitatorTimeoutMs: 5_000,
    onPurchase: (e) => events.push(e),
    items: [
      {
        id: "quote",
        name: "Quote",
        description: "A quote for a topic",
        price: "0.02",
        params: { topic: "Example: tea" },
        x402Tool: "quote_x402",
        handler: ({ topic }) => (delivered.push(`quote:${topic}`), `A quote about ${topic}`),
      },
      {
        id: "free-fact",
        name: "Free fact",
        description: "Free",
        price: 0,
        params: {},
        handler: () => (delivered.push("free"), "water is wet"),
      },
      {
        id: "slow-image",
        name: "Slow image",
        description: "Async",
        price: "0.05",
        params: { brief: "Example: a fox" },
        async: { checkAfterSeconds: 60 },
        handler: async ({ brief }) => {
          await new Promise<void>((r) => (releaseJob = r));
          delivered.push(`image:${brief}`);
          return { image: `${brief}.png` };
        },
      },
    ],
  });
  server = await kit.listen({ port: 0 });
  client = new Client({ name: "test-buyer", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await stack?.stop();
});

function requirements(
  units = PRICE,
  payTo: string = provider,
): { v1: PaymentRequirementsV1; v2: PaymentRequirementsV2 } {
  return buildRequirements({ network: BASE_SEPOLIA, units, payTo, resource: { url: "mcp://test-provider#quote" } });
}

async function signV1(buyer: PrivateKeyAccount, req: PaymentRequirementsV1): Promise<string> {
  const payment = await new ExactEvmSchemeV1(buyer).createPaymentPayload(1, req as never);
  return encodePaymentV1(payment as never);
}

/** A v2 payment as an x402 client makes it: `resource` repeats the PaymentRequired's (the kit names the item's tool and id). */
async function signV2(buyer: PrivateKeyAccount, req: PaymentRequirementsV2) {
  const signed = await new ExactEvmScheme(buyer).createPaymentPayload(2, req as never);
  return {
    x402Version: 2,
    accepted: req,
    payload: signed.payload,
    resource: { url: "mcp://test-provider#quote_x402/quote" },
  };
}

function purchase(
  itemId: string,
  params: Record<string, unknown>,
  signedTransaction: string,
  paymentMethod = "USDC_BASE_SEPOLIA",
) {
  return client.callTool({ name: "make-purchase", arguments: { itemId, params, signedTransaction, paymentMethod } });
}

async function balances(buyer: `0x${string}`) {
  return { buyer: await stack.chain.usdcBalance(buyer), provider: await stack.chain.usdcBalance(provider) };
}

/** Runs a refused purchase and checks that nothing moved and nothing was delivered. */
async function expectRefused(buyer: PrivateKeyAccount, run: () => Promise<unknown>, reason: RegExp) {
  const before = await balances(buyer.address);
  const count = delivered.length;
  const outcome = readPurchaseResult(await run());
  expect(outcome.ok).toBe(false);
  if (!outcome.ok) expect(outcome.reason).toMatch(reason);
  expect(await balances(buyer.address)).toEqual(before);
  expect(delivered.length).toBe(count);
}

describe("buying through make-purchase (MonetizedMCP wire format, x402 v1)", () => {
  it("moves exactly the price from buyer to provider, delivers once and returns the transaction", async () => {
    const buyer = await stack.fundedBuyer(1_000_000n);
    const before = await balances(buyer.address);
    const signed = await signV1(buyer, requirements().v1);
    const outcome = readPurchaseResult(await purchase("quote", { topic: "tea" }, signed));
    expect(outcome).toMatchObject({ ok: true, toolResult: "A quote about tea", payer: buyer.address });
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(outcome.orderId).toMatch(/^ord_/);
    expect(await balances(buyer.address)).toEqual({ buyer: before.buyer - PRICE, provider: before.provider + PRICE });
    expect(delivered.filter((d) => d === "quote:tea")).toHaveLength(1);

    // The same signed payment again: refused, delivered once only.
    await expectRefused(
      buyer,
      () => purchase("quote", { topic: "tea" }, signed),
      /this payment was already used; sign a new one\. Nothing was delivered\./,
    );
    expect(events.filter((e) => e.outcome === "delivered" && e.itemId === "quote")).toHaveLength(1);
  });

  it("delivers once when the same payment races itself", async () => {
    const buyer = await stack.fundedBuyer(1_000_000n);
    const signed = await signV1(buyer, requirements().v1);
    const count = delivered.length;
    const results = await Promise.all(
      [1, 2, 3].map(() => purchase("quote", { topic: "race" }, signed).then(readPurchaseResult)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(delivered.length - count).toBe(1);
    expect(await stack.chain.usdcBalance(buyer.address)).toBe(1_000_000n - PRICE);
  });

  it("refuses an unknown item and missing parameters before any payment", async () => {
    const buyer = await stack.fundedBuyer(1_000_000n);
    const signed = await signV1(buyer, requirements().v1);
    await expectRefused(buyer, () => purchase("no-such-item", { topic: "tea" }, signed), /Unknown item "no-such-item"/);
    await expectRefused(
      buyer,
      () => purchase("quote", {}, signed),
      /Missing parameters for "Quote": topic \(Example: tea\)/,
    );
    await expectRefused(buyer, () => purchase("quote", { topic: "  " }, signed), /Missing parameters/);
  });

  it("refuses a wrong amount, a wrong payee, a wrong network, an expired and a tampered payment", async () => {
    const buyer = await stack.fundedBuyer(1_000_000n);
    await expectRefused(
      buyer,
      async () => purchase("quote", { topic: "a" }, await signV1(buyer, requirements(10_000n).v1)),
      /authorises \$0\.01, the price of "Quote" is \$0\.02/,
    );
    await expectRefused(
      buyer,
      async () => purchase("quote", { topic: "a" }, await signV1(buyer, requirements(PRICE, stack.freshAddress()).v1)),
      /another payee/,
    );
    const mainnet = buildRequirements({ network: BASE_MAINNET, units: PRICE, payTo: provider, resource: { url: "x" } });
    await expectRefused(
      buyer,
      async () => purchase("quote", { topic: "a" }, await signV1(buyer, mainnet.v1)),
      /network base, this server is paid on Base Sepolia/,
    );
    await expectRefused(
      buyer,
      async () =>
        purchase("quote", { topic: "a" }, await signV1(buyer, { ...requirements().v1, maxTimeoutSeconds: 1 })),
      /expired/,
    );
    // A valid signature over other terms: the nonce is changed after signing.
    const tampered = JSON.parse(Buffer.from(await signV1(buyer, requirements().v1), "base64").toString());
    tampered.payload.authorization.nonce = `0x${"ab".repeat(32)}`;
    await expectRefused(
      buyer,
      () => purchase("quote", { topic: "a" }, Buffer.from(JSON.stringify(tampered)).toString("base64")),
      /signature/,
    );
    await expectRefused(buyer, () => purchase("quote", { topic: "a" }, "not a payment!"), /neither base64 nor JSON/);
    await expectRefused(buyer, () => purchase("quote", { topic: "a" }, ""), /Payment required: "Quote" costs \$0\.02/);
    await expectRefused(
      buyer,
      async () => purchase("quote", { topic: "a" }, await signV1(buyer, requirements().v1), "USDC_BASE_MAINNET"),
      /paid in USDC_BASE_SEPOLIA/,
    );
  });

  it("refuses a payment from a wallet that cannot cover it", async () => {
    const buyer = await stack.fundedBuyer(5_000n);
    await expectRefused(
      buyer,
      async () => purchase("quote", { topic: "poor" }, await signV1(buyer, requirements().v1)),
      /Payment refused/,
    );
  });

  it("delivers a free item without any payment", async () => {
    const count = delivered.length;
    const outcome = readPurchaseResult(await purchase("free-fact", {}, ""));
    expect(outcome).toMatchObject({ ok: true, toolResult: "water is wet" });
    expect(outcome.ok && outcome.transaction).toBeFalsy();
    expect(delivered.length).toBe(count + 1);
  });
});

describe("asynchronous items", () => {
  it("answers a job id at once and hands the result to the wallet that paid, and nobody else", async () => {
    const buyer = await stack.fundedBuyer(1_000_000n);
    const other = await stack.fundedBuyer(0n);
    const outcome = readPurchaseResult(
      await purchase("slow-image", { brief: "fox" }, await signV1(buyer, requirements(50_000n).v1)),
    );
    expect(outcome).toMatchObject({ ok: true, checkAfterSeconds: 60 });
    if (!outcome.ok || !outcome.jobId) throw new Error("no job");
    expect(await stack.chain.usdcBalance(buyer.address)).toBe(1_000_000n - 50_000n);
    const status = async (signer: PrivateKeyAccount) =>
      client.callTool({
        name: "job-status",
        arguments: {
          jobId: outcome.jobId,
          signature: await signer.signMessage({ message: jobStatusMessage(outcome.jobId!) }),
        },
      });
    expect((await status(buyer)).structuredContent).toMatchObject({ status: "pending" });
    releaseJob();
    await new Promise((r) => setTimeout(r, 50));
    expect((await status(buyer)).structuredContent).toMatchObject({ status: "done", toolResult: { image: "fox.png" } });
    const stranger = await status(other);
    expect(stranger.isError).toBe(true);
    expect(JSON.stringify(stranger.content)).toContain("No such job for this wallet");
    // A signature of another message by the right wallet does not open it either.
    const wrong = await client.callTool({
      name: "job-status",
      arguments: {
        jobId: outcome.jobId,
        signature: await signMessage({ message: "hello", privateKey: `0x${"11".repeat(32)}` }),
      },
    });
    expect(wrong.isError).toBe(true);
  });
});

describe("buying through the x402 binding for MCP", () => {
  it("answers an unpaid call with PaymentRequired and delivers a paid v2 call with its settlement", async () => {
    const unpaid = await client.callTool({ name: "quote_x402", arguments: { topic: "tea" } });
    expect(unpaid.isError).toBe(true);
    const required = readPaymentRequired(unpaid);
    expect(required).toMatchObject({
      x402Version: 2,
      error: "Payment required",
      accepts: [
        { scheme: "exact", network: "eip155:84532", amount: "20000", payTo: provider, asset: BASE_SEPOLIA.asset },
      ],
    });

    const buyer = await stack.fundedBuyer(1_000_000n);
    const payment = await signV2(buyer, required!.accepts[0] as PaymentRequirementsV2);
    const paid = await client.callTool({
      name: "quote_x402",
      arguments: { topic: "tea" },
      _meta: { "x402/payment": payment },
    });
    expect(paid.isError).toBeFalsy();
    expect(paid.content).toEqual([{ type: "text", text: "A quote about tea" }]);
    expect(readSettlementResponse(paid._meta)).toMatchObject({
      success: true,
      network: "eip155:84532",
      payer: buyer.address,
    });
    expect(await stack.chain.usdcBalance(buyer.address)).toBe(1_000_000n - PRICE);

    const again = await client.callTool({
      name: "quote_x402",
      arguments: { topic: "tea" },
      _meta: { "x402/payment": payment },
    });
    expect(readPaymentRequired(again)?.error).toBe("Payment refused: this payment was already used; sign a new one.");
    expect(await stack.chain.usdcBalance(buyer.address)).toBe(1_000_000n - PRICE);
  });

  it("accepts a version 1 payment (base64) in _meta and refuses another asset", async () => {
    const buyer = await stack.fundedBuyer(1_000_000n);
    const paid = await client.callTool({
      name: "quote_x402",
      arguments: { topic: "v1" },
      _meta: { "x402/payment": await signV1(buyer, requirements().v1) },
    });
    expect(paid.isError).toBeFalsy();
    expect(await stack.chain.usdcBalance(buyer.address)).toBe(1_000_000n - PRICE);

    const otherAsset = { ...requirements().v2, asset: "0x0000000000000000000000000000000000000001" };
    const refused = await client.callTool({
      name: "quote_x402",
      arguments: { topic: "v1" },
      _meta: { "x402/payment": await signV2(buyer, otherAsset) },
    });
    expect(readPaymentRequired(refused)?.error).toMatch(/another token/);
    expect(await stack.chain.usdcBalance(buyer.address)).toBe(1_000_000n - PRICE);
  });
});

describe("when the facilitator is down or slow", () => {
  async function kitWith(facilitatorUrl: string) {
    const kit = createMonetizedServer({
      name: "lonely-provider",
      walletAddress: provider,
      facilitatorUrl,
      facilitatorTimeoutMs: 1_500,
      items: [
        {
          id: "quote",
          name: "Quote",
          description: "q",
          price: "0.02",
          params: {},
          handler: () => delivered.push("lonely"),
        },
      ],
    });
    const running = await kit.listen({ port: 0 });
    const c = new Client({ name: "t", version: "1" });
    await c.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    return { c, close: async () => (await c.close(), await running.close()) };
  }

  it("answers a clear error within a bounded time and charges nothing", async () => {
    const silent = http.createServer(() => {}); // accepts, never answers
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
    const closedPort = http.createServer();
    await new Promise<void>((r) => closedPort.listen(0, "127.0.0.1", () => r()));
    const deadUrl = `http://127.0.0.1:${(closedPort.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closedPort.close(() => r()));
    const buyer = await stack.fundedBuyer(1_000_000n);
    try {
      for (const [url, expected] of [
        [deadUrl, /could not be reached; nothing was charged/],
        [`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, /did not answer in time; nothing was charged/],
      ] as const) {
        const { c, close } = await kitWith(url);
        const started = Date.now();
        await expectRefused(
          buyer,
          async () =>
            c.callTool({
              name: "make-purchase",
              arguments: {
                itemId: "quote",
                params: {},
                paymentMethod: "USDC_BASE_SEPOLIA",
                signedTransaction: await signV1(buyer, requirements().v1),
              },
            }),
          expected,
        );
        expect(Date.now() - started).toBeLessThan(4_000);
        await close();
      }
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
