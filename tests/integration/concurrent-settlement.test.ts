// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// Many purchases at once on a real local chain (anvil, one-second blocks as in the sandbox) through the real
// facilitator, which settles every one from a single account: twenty straight to a kit server and twenty
// through the agent client all settle, and the chain moves exactly twenty prices. When the facilitator is
// down, hangs or the payer is short, the buyer reads one clear sentence, nothing is delivered and nothing moves.
import http from "node:http";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startHangingFacilitator } from "../support/hanging-facilitator";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BASE_SEPOLIA,
  buildRequirements,
  encodePaymentV1,
  readPaymentRequired,
  readPurchaseResult,
} from "@agora-mcp/protocol";
import { createMonetizedServer, type RunningServer } from "@agora-mcp/server";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server/server";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

const PRICE = 10_000n; // $0.01
const AT_ONCE = 20;
const BIN = path.resolve("packages/client/dist/bin.js");

let stack: PaymentStack;
const running: { close: () => Promise<void> }[] = [];
const delivered: string[] = [];

beforeAll(async () => {
  stack = await startPaymentStack({ blockTime: 1 });
});

afterAll(async () => {
  for (const r of running.reverse()) await r.close();
  await stack?.stop();
});

/** A kit server selling a $0.01 quote (also as the x402 tool quote_x402) into `payTo`, and an MCP client of it. */
async function kitServer(payTo: `0x${string}`, facilitatorUrl: string, facilitatorTimeoutMs = 5_000) {
  const kit = createMonetizedServer({
    name: "concurrent-provider",
    walletAddress: payTo,
    facilitatorUrl,
    facilitatorTimeoutMs,
    log: () => {},
    items: [
      {
        id: "quote",
        name: "Quote",
        description: "A quote",
        price: "0.01",
        params: { topic: "Example: tea" },
        x402Tool: "quote_x402",
        handler: ({ topic }) => (delivered.push(topic!), `A quote about ${topic}`),
      },
    ],
  });
  const server: RunningServer = await kit.listen({ port: 0 });
  const client = new Client({ name: "buyer", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  running.push({ close: async () => (await client.close(), await server.close()) });
  return client;
}

function requirements(payTo: `0x${string}`) {
  return buildRequirements({
    network: BASE_SEPOLIA,
    units: PRICE,
    payTo,
    resource: { url: "mcp://concurrent-provider#quote" },
  });
}

async function signV1(buyer: PrivateKeyAccount, payTo: `0x${string}`): Promise<string> {
  return encodePaymentV1(
    (await new ExactEvmSchemeV1(buyer).createPaymentPayload(1, requirements(payTo).v1 as never)) as never,
  );
}

async function signV2(buyer: PrivateKeyAccount, payTo: `0x${string}`) {
  const accepted = requirements(payTo).v2;
  const signed = await new ExactEvmScheme(buyer).createPaymentPayload(2, accepted as never);
  return {
    x402Version: 2,
    accepted,
    payload: signed.payload,
    resource: { url: "mcp://concurrent-provider#quote_x402/quote" },
  };
}

function makePurchase(client: Client, topic: string, signedTransaction: string) {
  return client.callTool({
    name: "make-purchase",
    arguments: { itemId: "quote", params: { topic }, paymentMethod: "USDC_BASE_SEPOLIA", signedTransaction },
  });
}

async function balances(payer: `0x${string}`, payee: `0x${string}`) {
  return { payer: await stack.chain.usdcBalance(payer), payee: await stack.chain.usdcBalance(payee) };
}

/** What a buyer reads carries nothing of the facilitator's insides: no address, request body or stack line. */
function expectClean(message: string) {
  expect(message).not.toMatch(/https?:\/\//);
  expect(message).not.toContain("Request body");
  expect(message).not.toMatch(/\n\s+at /);
}

describe("twenty purchases at once", () => {
  it("straight to a kit server: all settle, and exactly twenty prices move", async () => {
    const payTo = stack.freshAddress();
    const buyer = await stack.fundedBuyer(1_000_000n);
    const client = await kitServer(payTo, stack.facilitator.url);
    const before = await balances(buyer.address, payTo);
    // Signed first, so the twenty calls leave together: half MonetizedMCP (v1), half the x402 binding (v2).
    const payments = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) => (i % 2 ? signV2(buyer, payTo) : signV1(buyer, payTo))),
    );
    const results = await Promise.all(
      payments.map((payment, i) =>
        typeof payment === "string"
          ? makePurchase(client, `kit-${i}`, payment).then((r) => readPurchaseResult(r))
          : client
              .callTool({ name: "quote_x402", arguments: { topic: `kit-${i}` }, _meta: { "x402/payment": payment } })
              .then((r) => ({ ok: !r.isError, reason: readPaymentRequired(r)?.error })),
      ),
    );
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const txs = results.map((r) => ("transaction" in r ? r.transaction : undefined)).filter(Boolean);
    expect(new Set(txs).size).toBe(AT_ONCE / 2);
    expect(delivered.filter((d) => d.startsWith("kit-"))).toHaveLength(AT_ONCE);
    expect(await balances(buyer.address, payTo)).toEqual({
      payer: before.payer - PRICE * BigInt(AT_ONCE),
      payee: before.payee + PRICE * BigInt(AT_ONCE),
    });
  });

  it("through the agent client: all delivered and checked on chain, and exactly twenty prices move", async () => {
    const payTo = stack.freshAddress();
    const reference: ReferenceServer = await startReferenceServer({
      port: 0,
      walletAddress: payTo,
      facilitatorUrl: stack.facilitator.url,
    });
    running.push(reference);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-concurrent-"));
    running.push({ close: async () => fs.rmSync(tmp, { recursive: true, force: true }) });
    const env = {
      AGORA_REGISTRY_URL: "http://127.0.0.1:9/api", // unused: the server is addressed by URL
      AGORA_RPC_URL: stack.chain.rpcUrl,
      AGORA_WALLET_FILE: path.join(tmp, "wallet.json"),
      ENABLE_UNSAFE_DIRECT_ACCESS: "true",
      ENABLE_REQUEST_ELICITATION: "true",
      ELICITATION_THRESHOLD: "0.05", // above the $0.01 item: nobody is asked
      AGORA_DAILY_CAP: "10",
      AGORA_MAX_PER_PURCHASE: "1",
    };
    const host = new Client({ name: "host", version: "1" });
    await host.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN],
        env: { ...process.env, ...env },
        stderr: "ignore",
      }),
    );
    running.push({ close: () => host.close() });
    const wallet = (await host.callTool({ name: "wallet", arguments: {} })) as CallToolResult;
    const payer = (wallet.structuredContent as { address: `0x${string}` }).address;
    await stack.chain.mintUsdc(payer, 1_000_000n);
    const before = await balances(payer, payTo);

    // Half through make-purchase (weather-now), half through the x402 tool of the same item (weather).
    const outcomes = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        host.callTool(
          {
            name: "purchase",
            arguments: { server: reference.url, item: i % 2 ? "weather" : "weather-now", params: { city: `City${i}` } },
          },
          undefined,
          { timeout: 90_000 },
        ),
      ),
    );
    const statuses = outcomes.map(
      (o) =>
        (o.structuredContent as { status: string; message: string }) ?? {
          status: "none",
          message: JSON.stringify(o.content),
        },
    );
    expect(statuses.filter((s) => s.status !== "delivered")).toEqual([]);
    expect(await balances(payer, payTo)).toEqual({
      payer: before.payer - PRICE * BigInt(AT_ONCE),
      payee: before.payee + PRICE * BigInt(AT_ONCE),
    });
  });
});

describe("when settlement cannot happen", () => {
  it("a payer without the funds reads that its balance is too low, on both bindings", async () => {
    const payTo = stack.freshAddress();
    const buyer = await stack.fundedBuyer(PRICE - 1n);
    const client = await kitServer(payTo, stack.facilitator.url);
    const count = delivered.length;
    const viaPurchase = readPurchaseResult(await makePurchase(client, "poor", await signV1(buyer, payTo)));
    expect(viaPurchase).toMatchObject({
      ok: false,
      reason: "Payment refused: the payer's USDC balance is too low. Nothing was delivered.",
    });
    const viaX402 = await client.callTool({
      name: "quote_x402",
      arguments: { topic: "poor" },
      _meta: { "x402/payment": await signV2(buyer, payTo) },
    });
    expect(readPaymentRequired(viaX402)?.error).toBe("Payment refused: the payer's USDC balance is too low.");
    expect(delivered.length).toBe(count);
    expect(await balances(buyer.address, payTo)).toEqual({ payer: PRICE - 1n, payee: 0n });
  });

  it("a facilitator that is down: a clear refusal, nothing delivered, nothing moved", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const payTo = stack.freshAddress();
    const buyer = await stack.fundedBuyer(1_000_000n);
    const client = await kitServer(payTo, deadUrl);
    const count = delivered.length;
    const outcome = readPurchaseResult(await makePurchase(client, "down", await signV1(buyer, payTo)));
    expect(outcome).toMatchObject({
      ok: false,
      reason:
        "Payment refused: the payment facilitator could not be reached; nothing was charged. Try again later. Nothing was delivered.",
    });
    if (!outcome.ok) expectClean(outcome.reason);
    expect(delivered.length).toBe(count);
    expect(await balances(buyer.address, payTo)).toEqual({ payer: 1_000_000n, payee: 0n });
  });

  it("a facilitator whose settlement never answers: a timeout refusal, and the same payment later charges once", async () => {
    // Verifies through the real facilitator, then holds every settlement open without sending anything.
    const hanging = await startHangingFacilitator(stack.facilitator.url);
    running.push(hanging);
    const payTo = stack.freshAddress();
    const buyer = await stack.fundedBuyer(1_000_000n);
    const stuck = await kitServer(payTo, hanging.url, 1_500);
    const payment = await signV1(buyer, payTo);
    const count = delivered.length;

    const started = Date.now();
    const timedOut = readPurchaseResult(await makePurchase(stuck, "hang", payment));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(timedOut).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        /^Payment not settled: the payment facilitator did not confirm the settlement in time, so nothing was delivered\./,
      ),
    });
    if (!timedOut.ok) expectClean(timedOut.reason);
    expect(delivered.length).toBe(count);
    expect(await balances(buyer.address, payTo)).toEqual({ payer: 1_000_000n, payee: 0n });

    // The buyer retries the same signed payment where the facilitator works: charged once, delivered once;
    // a third try is refused as used, and nothing more moves.
    const working = await kitServer(payTo, stack.facilitator.url);
    expect(readPurchaseResult(await makePurchase(working, "hang", payment))).toMatchObject({ ok: true });
    const again = readPurchaseResult(await makePurchase(working, "hang", payment));
    expect(again).toMatchObject({ ok: false, reason: expect.stringMatching(/already used/) });
    expect(delivered.length).toBe(count + 1);
    expect(await balances(buyer.address, payTo)).toEqual({ payer: 1_000_000n - PRICE, payee: PRICE });
  });
});
