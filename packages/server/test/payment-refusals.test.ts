// What a buyer reads when the facilitator refuses or fails, with a scripted facilitator on loopback (no chain):
// one fixed sentence per reason, whatever the facilitator wrote, never a URL, request body or stack; nothing
// delivered; the facilitator's own words reach the provider's log, one bounded line each.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonetizedServer, type RunningServer } from "@agora-mcp/server";

const WALLET = "0x000000000000000000000000000000000000dEaD";
const BUYER = "0x1111111111111111111111111111111111111111";
/** What viem puts in a failed send's message, and so what a facilitator may hand on as its reason. */
const RAW_VIEM =
  'Transaction creation failed.\n\nURL: http://127.0.0.1:8545\nRequest body: {"method":"eth_sendRawTransaction","params":["0x02f8"]}\n\nDetails: replacement transaction underpriced\n    at sendRawTransaction (node_modules/viem/_esm/actions/wallet/sendRawTransaction.js:1:1)';

type Script = { status?: number; body?: unknown; hang?: boolean; raw?: string };
let verifyScript: Script = {};
let settleScript: Script = {};
const delivered: string[] = [];
const logged: string[] = [];

let facilitator: http.Server;
let server: RunningServer;
let client: Client;

beforeAll(async () => {
  facilitator = http.createServer((req, res) => {
    req.resume();
    const script = req.url === "/verify" ? verifyScript : settleScript;
    if (script.hang) return; // accepts, never answers
    res
      .writeHead(script.status ?? 200, { "content-type": script.raw ? "text/html" : "application/json" })
      .end(script.raw ?? JSON.stringify(script.body));
  });
  await new Promise<void>((r) => facilitator.listen(0, "127.0.0.1", () => r()));
  const kit = createMonetizedServer({
    name: "refusal-test",
    walletAddress: WALLET,
    facilitatorUrl: `http://127.0.0.1:${(facilitator.address() as AddressInfo).port}`,
    facilitatorTimeoutMs: 800,
    log: (line) => logged.push(line),
    items: [
      {
        id: "quote",
        name: "Quote",
        description: "A quote",
        price: "0.02",
        x402Tool: "quote_x402",
        handler: () => (delivered.push("quote"), "q"),
      },
    ],
  });
  server = await kit.listen({ port: 0 });
  client = new Client({ name: "buyer", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  facilitator.closeAllConnections();
  await new Promise<void>((r) => facilitator.close(() => r()));
});

/** A well-formed version 1 payment for the quote (the scripted facilitator judges it, so no real signature is needed). */
function payment(): string {
  const now = Math.floor(Date.now() / 1000);
  const nonce = `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  const authorization = {
    from: BUYER,
    to: WALLET,
    value: "20000",
    validAfter: String(now - 60),
    validBefore: String(now + 300),
    nonce,
  };
  const body = {
    x402Version: 1,
    scheme: "exact",
    network: "base-sepolia",
    payload: { signature: `0x${"ab".repeat(65)}`, authorization },
  };
  return Buffer.from(JSON.stringify(body)).toString("base64");
}

async function buy(): Promise<string> {
  const result = (await client.callTool({
    name: "make-purchase",
    arguments: { itemId: "quote", params: {}, paymentMethod: "USDC_BASE_SEPOLIA", signedTransaction: payment() },
  })) as CallToolResult;
  expect(result.isError).toBe(true);
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

/** Nothing from the facilitator's insides: no address, request body or stack line. */
function expectClean(message: string) {
  expect(message).not.toMatch(/https?:\/\//);
  expect(message).not.toContain("Request body");
  expect(message).not.toMatch(/\n\s+at /);
  expect(message).not.toContain("eth_sendRawTransaction");
}

const verified = { status: 200, body: { isValid: true, payer: BUYER } };

describe("a facilitator's verdict becomes one fixed sentence", () => {
  it.each([
    ["invalid_exact_evm_insufficient_balance", "Payment refused: the payer's USDC balance is too low."],
    ["insufficient_funds", "Payment refused: the payer's USDC balance is too low."],
    [
      "invalid_exact_evm_payload_authorization_valid_before",
      "Payment refused: the payment authorisation has expired; sign a new one.",
    ],
    ["invalid_exact_evm_nonce_already_used", "Payment refused: this payment was already used; sign a new one."],
    ["invalid_exact_evm_signature", "Payment refused: the payment's signature is not valid."],
    ["invalid_exact_evm_authorization_value", "Payment refused: the payment's amount differs from the price."],
    [
      "invalid_exact_evm_recipient_mismatch",
      "Payment refused: the payment names another payee than this server's wallet.",
    ],
    ["invalid_exact_evm_network_mismatch", "Payment refused: the payment is for another network."],
    ["a_reason_nobody_has_seen", "Payment refused: the payment facilitator refused it."],
    [RAW_VIEM, "Payment refused: the payment facilitator refused it."],
  ])("verify says %s", async (invalidReason, expected) => {
    verifyScript = { body: { isValid: false, invalidReason, invalidMessage: RAW_VIEM } };
    const count = delivered.length;
    const message = await buy();
    expect(message).toBe(`${expected} Nothing was delivered.`);
    expectClean(message);
    expect(delivered.length).toBe(count);
  });

  it.each([
    ["invalid_exact_evm_transaction_failed", "Payment not settled: the settlement transaction failed."],
    ["invalid_exact_evm_nonce_already_used", "Payment not settled: this payment was already used; sign a new one."],
    [`invalid_exact_evm_transaction_failed: ${RAW_VIEM}`, "Payment not settled: the settlement transaction failed."],
    [RAW_VIEM, "Payment not settled: the payment facilitator refused it."],
  ])("settle says %s", async (errorReason, expected) => {
    verifyScript = verified;
    settleScript = {
      body: { success: false, errorReason, errorMessage: RAW_VIEM, transaction: "", network: "base-sepolia" },
    };
    const count = delivered.length;
    const message = await buy();
    expect(message).toBe(`${expected} Nothing was delivered.`);
    expectClean(message);
    expect(delivered.length).toBe(count);
  });

  it("answers the x402 binding's PaymentRequired with the same sentence", async () => {
    verifyScript = { body: { isValid: false, invalidReason: "invalid_exact_evm_insufficient_balance" } };
    const result = (await client.callTool({
      name: "quote_x402",
      arguments: {},
      _meta: { "x402/payment": payment() },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      x402Version: 2,
      error: "Payment refused: the payer's USDC balance is too low.",
    });
  });

  it("logs the facilitator's own words for the provider, one bounded line each", async () => {
    verifyScript = {
      body: { isValid: false, invalidReason: "invalid_exact_evm_signature", invalidMessage: RAW_VIEM.repeat(20) },
    };
    logged.length = 0;
    await buy();
    // The facilitator's words, then the kit's line for the refused purchase (tool, price, outcome, the buyer's reason).
    expect(logged).toHaveLength(2);
    expect(logged[1]).toMatch(/^purchase \S+ \$\d+\.\d+: refused \(Payment refused/);
    expect(logged[0]).toMatch(
      /^facilitator verify refused a payment \(invalid_signature\): invalid_exact_evm_signature Transaction creation failed\./,
    );
    expect(logged[0]).not.toContain("\n");
    expect(logged[0]!.length).toBeLessThanOrEqual(400);
  });
});

describe("a facilitator that gives no verdict", () => {
  it.each([
    [
      "verify answers 500 with a page",
      () => ((verifyScript = { status: 500, raw: `<html>${RAW_VIEM}</html>` }), undefined),
      "Payment refused: the payment facilitator failed; nothing was charged. Try again later.",
    ],
    [
      "verify hangs",
      () => ((verifyScript = { hang: true }), undefined),
      "Payment refused: the payment facilitator did not answer in time; nothing was charged. Try again later.",
    ],
    [
      "settle hangs",
      () => ((verifyScript = verified), (settleScript = { hang: true })),
      "Payment not settled: the payment facilitator did not confirm the settlement in time, so nothing was delivered. The signed payment can be taken at most once; check the payer's balance before signing a new one.",
    ],
    [
      "settle answers 502",
      () => ((verifyScript = verified), (settleScript = { status: 502, raw: RAW_VIEM })),
      "Payment not settled: the payment facilitator failed during settlement, so nothing was delivered. The signed payment can be taken at most once; check the payer's balance before signing a new one.",
    ],
  ])("%s: a clear refusal within the bound, nothing delivered", async (_name, script, expected) => {
    script();
    const count = delivered.length;
    const started = Date.now();
    const message = await buy();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(message).toBe(`${expected} Nothing was delivered.`);
    expectClean(message);
    expect(delivered.length).toBe(count);
  });
});
