// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// The wallet and the kit's two orders of payment, on a real chain: an item sold both ways is bought through its x402
// tool (settled only after the tool succeeded), and the person's confirmation says which order applies ("You pay only
// if the tool succeeds." / "Payment is taken before the tool runs."). A tool that fails after the person said yes
// costs nothing, and the outcome says so with its code; the wallet's ledger keeps the attempt as refused.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chainReader,
  Confirmations,
  Ledger,
  loadSettings,
  purchase,
  walletFromKey,
  type PurchaseDeps,
} from "@agora-mcp/client";
import { createMonetizedServer, type PurchaseEvent } from "@agora-mcp/server";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

const PRICE = 10_000n;
let stack: PaymentStack;
let url: string;
let payTo: `0x${string}`;
const events: PurchaseEvent[] = [];
const closing: (() => Promise<void>)[] = [];

beforeAll(async () => {
  stack = await startPaymentStack();
  payTo = stack.freshAddress();
  const quote = ({ topic }: Record<string, string>) => {
    if (topic === "fail") throw new Error("the quote service is down");
    return `A quote about ${topic}`;
  };
  const kit = createMonetizedServer({
    name: "order-wallet",
    walletAddress: payTo,
    facilitatorUrl: stack.facilitator.url,
    log: () => {},
    onPurchase: (e) => events.push(e),
    items: [
      {
        id: "quote",
        name: "Quote",
        description: "A quote",
        price: "0.01",
        params: { topic: "Example: tea" },
        handler: quote,
      },
      {
        id: "quote-first",
        name: "Quote, paid first",
        description: "A quote, through make-purchase only",
        price: "0.01",
        params: { topic: "Example: tea" },
        x402Tool: false,
        handler: quote,
      },
    ],
  });
  const running = await kit.listen({ port: 0 });
  closing.push(() => running.close());
  url = running.url;
}, 60_000);

afterAll(async () => {
  for (const close of closing) await close();
  await stack?.stop();
});

/** A funded wallet whose person is asked before every paid purchase (a host without elicitation: a confirmation id). */
async function buyer() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-order-"));
  closing.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const key = generatePrivateKey();
  await stack.chain.mintUsdc(privateKeyToAccount(key).address, 1_000_000n);
  const settings = loadSettings({
    AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
    ENABLE_UNSAFE_DIRECT_ACCESS: "true",
    ENABLE_REQUEST_ELICITATION: "true",
    ELICITATION_THRESHOLD: "0",
    AGORA_RPC_URL: stack.chain.rpcUrl,
  });
  const ledger = new Ledger(path.join(dir, "ledger.jsonl"));
  const wallet = walletFromKey(key);
  const deps: PurchaseDeps = {
    settings,
    wallet,
    ledger,
    chain: chainReader(settings.network, settings.rpcUrl),
    confirmations: new Confirmations(),
    asker: { kind: "confirmation-id" },
  };
  return { deps, ledger, address: wallet.address };
}

describe("the wallet and the order of payment", () => {
  it("says in the confirmation which order applies, and buys an item sold both ways through its x402 tool", async () => {
    const { deps, address } = await buyer();
    const asked = await purchase({ server: url, item: "quote", params: { topic: "tea" } }, deps);
    expect(asked).toMatchObject({ status: "confirmation-required", code: "confirmation_required" });
    expect(asked.message).toMatch(/for "Quote"\? You pay only if the tool succeeds\. Payee /);
    const first = await purchase({ server: url, item: "quote-first", params: { topic: "tea" } }, deps);
    expect(first.message).toMatch(/for "Quote, paid first"\? Payment is taken before the tool runs\. Payee /);

    const bought = await purchase(
      { server: url, item: "quote", params: { topic: "tea" }, confirmationId: asked.confirmationId },
      deps,
    );
    expect(bought).toMatchObject({ status: "delivered", code: "delivered", result: "A quote about tea" });
    expect(await stack.chain.usdcBalance(address)).toBe(1_000_000n - PRICE);
    // The kit heard it on its x402 tool: settled after delivery, in one event with its transaction.
    expect(events.at(-1)).toMatchObject({ itemId: "quote", outcome: "delivered", transaction: bought.transaction });
  });

  it("charges nothing for a tool that fails after the person said yes, and says so", async () => {
    const { deps, ledger, address } = await buyer();
    const asked = await purchase({ server: url, item: "quote", params: { topic: "fail" } }, deps);
    const failed = await purchase(
      { server: url, item: "quote", params: { topic: "fail" }, confirmationId: asked.confirmationId },
      deps,
    );
    expect(failed).toMatchObject({ status: "failed", code: "tool_failed_uncharged", signed: true });
    expect(failed.message).toMatch(
      /'s tool failed: "Quote" failed: the quote service is down\. You were not charged\. \(order ord_[0-9a-f]+\) The payment was not used; nothing was paid\. You were not charged\.$/,
    );
    expect(await stack.chain.usdcBalance(address)).toBe(1_000_000n);
    expect(ledger.attempts().at(-1)).toMatchObject({ status: "refused", code: "tool_failed" });
    expect(events.at(-1)).toMatchObject({ itemId: "quote", outcome: "failed", charged: false });
  });

  it("pays first through make-purchase when the item has no x402 tool: a failure is charged, and reported as such", async () => {
    const { deps, address } = await buyer();
    const asked = await purchase({ server: url, item: "quote-first", params: { topic: "fail" } }, deps);
    const failed = await purchase(
      { server: url, item: "quote-first", params: { topic: "fail" }, confirmationId: asked.confirmationId },
      deps,
    );
    expect(failed).toMatchObject({ status: "disputed", code: "charged_failure" });
    expect(await stack.chain.usdcBalance(address)).toBe(1_000_000n - PRICE);
    expect(events.at(-1)).toMatchObject({ itemId: "quote-first", outcome: "failed", charged: true });
  });
});
