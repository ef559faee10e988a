// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// The kit's order of payment, on a real chain (anvil) through a real facilitator: an item's x402 tool verifies the
// payment, runs the item, and settles only a call that succeeded, in both MCP eras (2026-07-28 and the 2025 fallback);
// a handler that throws, answers an error or answers nothing costs nothing; the same payment cannot be used twice
// while the item runs; a settlement that fails or times out after delivery charges nothing, withholds the result and
// tells the seller; an asynchronous item settles only when its result is ready. MonetizedMCP's make-purchase checks
// the parameters against the item's schema before any payment, and a failure after its settlement is reported as
// "failed, charged" with the order id. Every money claim is read from the chain.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { x402Client } from "@x402/core/client";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  BASE_SEPOLIA,
  buildRequirements,
  encodePaymentV1,
  jobStatusMessage,
  readPaymentRequired,
  readPurchaseResult,
} from "@agora-mcp/protocol";
import {
  createMonetizedServer,
  type ChargedFailure,
  type ItemDefinition,
  type PurchaseEvent,
  type SettlementFailure,
} from "@agora-mcp/server";
import { startHangingFacilitator } from "../support/hanging-facilitator";
import { startRefusingFacilitator } from "../support/refusing-facilitator";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

const PRICE = 10_000n; // $0.01
let stack: PaymentStack;
const closing: (() => Promise<void>)[] = [];
const ran: string[] = [];
let release: () => void = () => {};

beforeAll(async () => {
  stack = await startPaymentStack();
});

afterAll(async () => {
  for (const close of closing.reverse()) await close();
  await stack?.stop();
});

/** Items whose handlers fail in each way a tool can, and one that waits for the test to let it go. */
function items(): ItemDefinition[] {
  const quote = (
    id: string,
    handler: ItemDefinition["handler"],
    extra: Partial<ItemDefinition> = {},
  ): ItemDefinition => ({
    id,
    name: id,
    description: `The ${id} item`,
    price: "0.01",
    params: { topic: "Example: tea" },
    handler: (params, ctx) => (ran.push(`${id}:${params.topic}`), handler(params, ctx)),
    ...extra,
  });
  return [
    quote("quote", ({ topic }) => {
      if (topic === "fail") throw new Error("the quote service is down");
      return `A quote about ${topic}`;
    }),
    quote("error-answer", () => ({ isError: true, content: [{ type: "text", text: "no quotes today" }] })),
    quote("empty-answer", () => ""),
    quote("slow", async ({ topic }) => (await new Promise<void>((r) => (release = r)), `Slowly, ${topic}`)),
    quote("strict", ({ topic }) => `Strictly ${topic}`, {
      paramsSchema: z.object({ topic: z.string().regex(/^[a-z]+$/, "lower-case letters only") }),
    }),
    quote(
      "job",
      async ({ topic }) => {
        await new Promise((r) => setTimeout(r, 300));
        if (topic === "fail") throw new Error("the renderer crashed");
        return { image: `${topic}.png` };
      },
      { async: { checkAfterSeconds: 1 } },
    ),
  ];
}

type Kit = {
  url: string;
  payTo: `0x${string}`;
  events: PurchaseEvent[];
  charged: ChargedFailure[];
  unsettled: SettlementFailure[];
  logged: string[];
};

async function kit(facilitatorUrl = stack.facilitator.url, facilitatorTimeoutMs = 5_000): Promise<Kit> {
  const payTo = stack.freshAddress();
  const k: Omit<Kit, "url"> = { payTo, events: [], charged: [], unsettled: [], logged: [] };
  const server = createMonetizedServer({
    name: "order-test",
    walletAddress: payTo,
    facilitatorUrl,
    facilitatorTimeoutMs,
    log: (line) => k.logged.push(line),
    onPurchase: (e) => k.events.push(e),
    onChargedFailure: (e) => void k.charged.push(e),
    onSettlementFailed: (e) => void k.unsettled.push(e),
    items: items(),
  });
  const running = await server.listen({ port: 0 });
  closing.push(() => running.close());
  return { ...k, url: running.url };
}

type Host = {
  era: string;
  call: (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) => Promise<Result>;
};

async function host(url: string, mode: "auto" | "legacy"): Promise<Host> {
  const client = new Client({ name: "order-buyer", version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  closing.push(() => client.close());
  return {
    era: client.getNegotiatedProtocolVersion() ?? "",
    call: (name, args, meta) =>
      client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }) as Promise<Result>,
  };
}

/** The buyer signs what the unpaid call asked, as x402's own client does. */
async function pay(h: Host, buyer: PrivateKeyAccount, tool: string, args: Record<string, unknown>) {
  const required = (await h.call(tool, args)).structuredContent as unknown as PaymentRequired;
  expect(required.accepts[0]).toMatchObject({ amount: PRICE.toString() });
  return new x402Client().register("eip155:84532", new ExactEvmScheme(buyer)).createPaymentPayload(required);
}

const text = (r: Result) => r.content.map((c) => c.text ?? "").join(" ");
const balance = (a: `0x${string}`) => stack.chain.usdcBalance(a);

describe.each([
  ["2026-07-28", "auto"],
  ["the 2025 fallback", "legacy"],
] as const)("an x402 tool of the kit, in %s", (label, mode) => {
  it("charges nothing when the item throws, answers an error or answers nothing; the same payment then buys a call that succeeds", async () => {
    const k = await kit();
    const h = await host(k.url, mode);
    expect(h.era).toMatch(label === "2026-07-28" ? /^2026-07-28$/ : /^2025/);
    const buyer = await stack.fundedBuyer(1_000_000n);

    const payment = await pay(h, buyer, "quote", { topic: "fail" });
    const failed = await h.call("quote", { topic: "fail" }, { "x402/payment": payment });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(
      /^"quote" failed: the quote service is down\. You were not charged\. \(order ord_[0-9a-f]+\)$/,
    );
    expect(failed._meta?.["x402/payment-response"]).toBeUndefined();
    expect(ran).toContain("quote:fail");
    expect(await balance(buyer.address)).toBe(1_000_000n);
    expect(k.events.at(-1)).toMatchObject({ outcome: "failed", charged: false, itemId: "quote" });

    for (const tool of ["error-answer", "empty-answer"]) {
      const answer = await h.call(
        tool,
        { topic: "tea" },
        { "x402/payment": await pay(h, buyer, tool, { topic: "tea" }) },
      );
      expect(answer.isError, tool).toBe(true);
      expect(text(answer)).toMatch(
        tool === "error-answer"
          ? /no quotes today\. You were not charged\./
          : /the item answered nothing\. You were not charged\./,
      );
      expect(answer._meta?.["x402/payment-response"]).toBeUndefined();
    }
    expect(await balance(buyer.address)).toBe(1_000_000n);
    expect(await balance(k.payTo)).toBe(0n);

    // Nothing was delivered on the first payment, so its nonce is free again: it buys one good call, once.
    const good = await h.call("quote", { topic: "tea" }, { "x402/payment": payment });
    expect(good.isError ?? false).toBe(false);
    expect(text(good)).toBe("A quote about tea");
    expect(good._meta?.["x402/payment-response"]).toMatchObject({ success: true, payer: buyer.address });
    expect(await balance(buyer.address)).toBe(1_000_000n - PRICE);
    const again = await h.call("quote", { topic: "tea" }, { "x402/payment": payment });
    expect(readPaymentRequired(again)?.error).toBe("Payment refused: this payment was already used; sign a new one.");
    expect(await balance(k.payTo)).toBe(PRICE);
  });

  it("refuses the same payment while the item still runs on it, and settles once", async () => {
    const k = await kit();
    const h = await host(k.url, mode);
    const buyer = await stack.fundedBuyer(1_000_000n);
    const payment = await pay(h, buyer, "slow", { topic: "tea" });
    const first = h.call("slow", { topic: "tea" }, { "x402/payment": payment });
    await expect.poll(() => ran.filter((r) => r === "slow:tea").length, { timeout: 5_000 }).toBeGreaterThan(0);
    const count = ran.length;
    const second = await h.call("slow", { topic: "coffee" }, { "x402/payment": payment });
    expect(readPaymentRequired(second)?.error).toBe("Payment refused: this payment was already used; sign a new one.");
    expect(ran.length).toBe(count); // the second call never reached the item
    expect(await balance(buyer.address)).toBe(1_000_000n); // nothing settles while the item runs
    release();
    const done = await first;
    expect(text(done)).toBe("Slowly, tea");
    expect(await balance(buyer.address)).toBe(1_000_000n - PRICE);
    expect(await balance(k.payTo)).toBe(PRICE);
    ran.length = 0;
  });
});

describe("a settlement that fails after the item ran", () => {
  it("when the facilitator refuses to settle: nothing moves, the result is withheld, the buyer is told, the seller hears of it", async () => {
    const refusing = await startRefusingFacilitator(stack.facilitator.url);
    closing.push(refusing.close);
    const k = await kit(refusing.url);
    const h = await host(k.url, "auto");
    const buyer = await stack.fundedBuyer(1_000_000n);
    const answer = await h.call(
      "quote",
      { topic: "refused" },
      { "x402/payment": await pay(h, buyer, "quote", { topic: "refused" }) },
    );
    expect(ran).toContain("quote:refused");
    expect(answer.isError).toBe(true);
    expect(text(answer)).not.toContain("A quote about refused");
    expect(readPaymentRequired(answer)?.error).toBe(
      "Payment not settled: the settlement transaction failed. You were not charged. The result is withheld; pay again to get it.",
    );
    expect(await balance(buyer.address)).toBe(1_000_000n);
    expect(k.unsettled).toEqual([
      expect.objectContaining({ itemId: "quote", payer: buyer.address, orderId: expect.stringMatching(/^ord_/) }),
    ]);
    expect(k.events.at(-1)).toMatchObject({ outcome: "unsettled", charged: false });
    expect(k.logged.some((l) => l.includes("did not settle; the result was withheld"))).toBe(true);
  });

  it("when the facilitator does not answer the settlement in time: nothing moves, and the buyer is told", async () => {
    const hanging = await startHangingFacilitator(stack.facilitator.url);
    closing.push(hanging.close);
    const k = await kit(hanging.url, 1_500);
    const h = await host(k.url, "legacy");
    const buyer = await stack.fundedBuyer(1_000_000n);
    const started = Date.now();
    const answer = await h.call(
      "quote",
      { topic: "hang" },
      { "x402/payment": await pay(h, buyer, "quote", { topic: "hang" }) },
    );
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(readPaymentRequired(answer)?.error).toMatch(
      /^Payment not settled: the payment facilitator did not confirm the settlement in time.* You were not charged\. The result is withheld/,
    );
    expect(await balance(buyer.address)).toBe(1_000_000n);
    expect(k.unsettled).toHaveLength(1);
  });
});

describe("an asynchronous x402 item", () => {
  it("settles when its result is ready, and a job that fails costs nothing", async () => {
    const k = await kit();
    const h = await host(k.url, "auto");
    const buyer = await stack.fundedBuyer(1_000_000n);
    const status = async (jobId: string) =>
      (await h.call("job-status", { jobId, signature: await buyer.signMessage({ message: jobStatusMessage(jobId) }) }))
        .structuredContent as Record<string, unknown>;

    const ticket = await h.call(
      "job",
      { topic: "fox" },
      { "x402/payment": await pay(h, buyer, "job", { topic: "fox" }) },
    );
    const { jobId, settles } = ticket.structuredContent as { jobId: string; settles: string };
    expect(settles).toBe("when-ready");
    expect(ticket._meta?.["x402/payment-response"]).toBeUndefined();
    expect(await balance(buyer.address)).toBe(1_000_000n);
    await expect.poll(async () => (await status(jobId)).status, { timeout: 10_000 }).toBe("done");
    const done = await status(jobId);
    expect(done).toMatchObject({
      toolResult: { image: "fox.png" },
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(await balance(buyer.address)).toBe(1_000_000n - PRICE);

    const failing = await h.call(
      "job",
      { topic: "fail" },
      { "x402/payment": await pay(h, buyer, "job", { topic: "fail" }) },
    );
    const failedId = (failing.structuredContent as { jobId: string }).jobId;
    await expect.poll(async () => (await status(failedId)).status, { timeout: 10_000 }).toBe("failed");
    expect((await status(failedId)).error).toMatch(/the renderer crashed\. You were not charged\./);
    expect(await balance(buyer.address)).toBe(1_000_000n - PRICE);
  });
});

describe("make-purchase (MonetizedMCP: settled before delivery)", () => {
  /** Counts the facilitator's verify calls, passing everything through to the real one. */
  async function countingFacilitator() {
    let verifies = 0;
    const server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      if (req.url === "/verify") verifies++;
      const answer = await fetch(`${stack.facilitator.url}${req.url}`, {
        method: req.method,
        headers: { "content-type": "application/json" },
        body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    closing.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, verifies: () => verifies };
  }

  async function signV1(buyer: PrivateKeyAccount, payTo: `0x${string}`, item: string) {
    const requirements = buildRequirements({
      network: BASE_SEPOLIA,
      units: PRICE,
      payTo,
      resource: { url: `mcp://order-test#${item}` },
    });
    return encodePaymentV1(
      (await new ExactEvmSchemeV1(buyer).createPaymentPayload(1, requirements.v1 as never)) as never,
    );
  }

  it("checks the parameters against the item's schema before any payment is verified: bad input costs nothing", async () => {
    const facilitator = await countingFacilitator();
    const k = await kit(facilitator.url);
    const h = await host(k.url, "auto");
    const buyer = await stack.fundedBuyer(1_000_000n);
    const signed = await signV1(buyer, k.payTo, "strict");
    const bad = await h.call("make-purchase", {
      itemId: "strict",
      params: { topic: "Tea 42" },
      signedTransaction: signed,
      paymentMethod: "USDC_BASE_SEPOLIA",
    });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toBe('Invalid parameters for "strict": topic: lower-case letters only. Nothing was charged.');
    // The x402 tool checks the same schema before verifying.
    const x402 = await h.call(
      "strict",
      { topic: "Tea 42" },
      { "x402/payment": await pay(h, buyer, "strict", { topic: "tea" }) },
    );
    expect(text(x402)).toMatch(/Invalid parameters for "strict"/);
    expect(facilitator.verifies()).toBe(0);
    expect(ran.filter((r) => r.startsWith("strict:"))).toEqual([]);
    expect(await balance(buyer.address)).toBe(1_000_000n);

    // The same signed payment with good parameters: verified, settled, delivered.
    const good = readPurchaseResult(
      await h.call("make-purchase", {
        itemId: "strict",
        params: { topic: "tea" },
        signedTransaction: signed,
        paymentMethod: "USDC_BASE_SEPOLIA",
      }),
    );
    expect(good).toMatchObject({ ok: true, toolResult: "Strictly tea" });
    expect(facilitator.verifies()).toBe(1);
    expect(await balance(buyer.address)).toBe(1_000_000n - PRICE);
  });

  it("records a failure after settlement as failed, charged, with the order id, and tells the seller through onChargedFailure", async () => {
    const k = await kit();
    const h = await host(k.url, "legacy");
    const buyer = await stack.fundedBuyer(1_000_000n);
    const answer = await h.call("make-purchase", {
      itemId: "quote",
      params: { topic: "fail" },
      signedTransaction: await signV1(buyer, k.payTo, "quote"),
      paymentMethod: "USDC_BASE_SEPOLIA",
    });
    expect(answer.isError).toBe(true);
    const { orderId, transaction, charged, status } = answer.structuredContent as {
      orderId: string;
      transaction: string;
      charged: boolean;
      status: string;
    };
    expect({ status, charged }).toEqual({ status: "failed", charged: true });
    expect(text(answer)).toBe(
      `"quote" failed: the quote service is down. The payment settled (transaction ${transaction}); quote order ${orderId} to the provider.`,
    );
    expect(await balance(buyer.address)).toBe(1_000_000n - PRICE); // make-purchase's order: paid before the item ran
    await expect.poll(() => k.charged.length).toBe(1);
    expect(k.charged[0]).toEqual({
      orderId,
      itemId: "quote",
      units: PRICE.toString(),
      payer: buyer.address,
      transaction,
      reason: "the quote service is down",
    });
    expect(k.events.at(-1)).toMatchObject({ outcome: "failed", charged: true, orderId });
  });
});
