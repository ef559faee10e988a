// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// Metered items (x402's `upto` scheme) bought by the wallet from a kit server on a real chain: the buyer signs a
// maximum, the handler reports what the call used, and the kit settles exactly that after the call succeeded. The
// buyer holds no ETH: an EIP-2612 permit lets Permit2 move the USDC inside the facilitator's transaction. Balances are
// read from the chain; the wallet's ledger and budgets count what moved, not the maximum.
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
import { X402_PAYMENT_META } from "@agora-mcp/protocol";
import { createMonetizedServer, type PurchaseEvent } from "@agora-mcp/server";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { connect, signUptoPayment } from "../support/upto-buyer";

const FUNDS = 1_000_000n;
let stack: PaymentStack;
let url: string;
let payTo: `0x${string}`;
const events: PurchaseEvent[] = [];
const logs: string[] = [];
const closing: (() => Promise<void>)[] = [];

beforeAll(async () => {
  stack = await startPaymentStack();
  payTo = stack.freshAddress();
  const kit = createMonetizedServer({
    name: "metered-kit",
    walletAddress: payTo,
    facilitatorUrl: stack.facilitator.url,
    log: (line) => logs.push(line),
    onPurchase: (e) => events.push(e),
    items: [
      {
        id: "summarise",
        name: "Summarise",
        description: "Summarises pages; charged per page used",
        price: "0.10",
        metered: true,
        params: { pages: "How many pages: 0 to 20" },
        handler: ({ pages }, context) => {
          if (pages === "fail") throw new Error("the summariser is down");
          // One cent per page: "3" uses $0.03, "0" nothing, "50" more than the $0.10 maximum.
          context.reportUsage((Number(pages) / 100).toFixed(2));
          return `Summarised ${pages} pages`;
        },
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

/** A wallet holding $1 of USDC and no ETH, with nobody to ask (or a person asked through confirmation ids). */
async function buyer(env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-metered-"));
  closing.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  await stack.chain.mintUsdc(address, FUNDS);
  const settings = loadSettings({
    AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
    ENABLE_UNSAFE_DIRECT_ACCESS: "true",
    ENABLE_REQUEST_ELICITATION: "false",
    AGORA_RPC_URL: stack.chain.rpcUrl,
    ...env,
  });
  const ledger = new Ledger(path.join(dir, "ledger.jsonl"));
  const deps: PurchaseDeps = {
    settings,
    wallet: walletFromKey(key),
    ledger,
    chain: chainReader(settings.network, settings.rpcUrl),
    confirmations: new Confirmations(),
    asker: { kind: "confirmation-id" },
  };
  return { deps, ledger, address, key };
}

const buy = (deps: PurchaseDeps, pages: string, confirmationId?: string) =>
  purchase({ server: url, item: "summarise", params: { pages }, ...(confirmationId ? { confirmationId } : {}) }, deps);

describe("a metered item (upto)", () => {
  it("asks the person for 'up to' the maximum, and moves exactly what the call used", async () => {
    const { deps, ledger, address } = await buyer({ ENABLE_REQUEST_ELICITATION: "true", ELICITATION_THRESHOLD: "0" });
    expect(await stack.chain.ethBalance(address)).toBe(0n);
    const asked = await buy(deps, "3");
    expect(asked).toMatchObject({ status: "confirmation-required" });
    expect(asked.message).toMatch(
      /^Confirmation required: Pay up to \$0\.10 \(metered: you pay what the call uses\) USDC on .* for "Summarise"\? You pay only if the tool succeeds\./,
    );
    const payeeBefore = await stack.chain.usdcBalance(payTo);
    const bought = await buy(deps, "3", asked.confirmationId);
    expect(bought).toMatchObject({
      status: "delivered",
      code: "delivered",
      priceUsd: "$0.03",
      maxPriceUsd: "$0.10",
      result: "Summarised 3 pages",
    });
    expect(bought.message).toMatch(/^Paid \$0\.03 of up to \$0\.10 to /);
    expect(await stack.chain.usdcBalance(address)).toBe(FUNDS - 30_000n);
    expect((await stack.chain.usdcBalance(payTo)) - payeeBefore).toBe(30_000n);
    expect(ledger.attempts().at(-1)).toMatchObject({ status: "paid", units: "30000", transaction: bought.transaction });
    expect(events.at(-1)).toMatchObject({
      itemId: "summarise",
      outcome: "delivered",
      units: "30000",
      transaction: bought.transaction,
    });
  });

  it("moves nothing for a call that used nothing, and never more than the signed maximum", async () => {
    const { deps, ledger, address } = await buyer();
    const free = await buy(deps, "0");
    expect(free).toMatchObject({
      status: "delivered",
      priceUsd: "$0.00",
      maxPriceUsd: "$0.10",
      result: "Summarised 0 pages",
    });
    expect(free.transaction).toBeUndefined();
    expect(await stack.chain.usdcBalance(address)).toBe(FUNDS);
    expect(ledger.attempts().at(-1)).toMatchObject({ status: "paid", units: "0" });

    const over = await buy(deps, "50");
    expect(over).toMatchObject({ status: "delivered", priceUsd: "$0.10" });
    expect(await stack.chain.usdcBalance(address)).toBe(FUNDS - 100_000n);
    expect(
      logs.some((line) =>
        /metered item summarise reported \$0\.50, above its maximum of \$0\.10; the maximum was settled/.test(line),
      ),
    ).toBe(true);
  });

  it("charges nothing when the tool fails", async () => {
    const { deps, address } = await buyer();
    const failed = await buy(deps, "fail");
    expect(failed).toMatchObject({ status: "failed", code: "tool_failed_uncharged", signed: true });
    expect(await stack.chain.usdcBalance(address)).toBe(FUNDS);
  });

  it("counts the maximum against a budget while it runs and what moved after", async () => {
    // A day's budget of $0.15 takes two calls of up to $0.10 each when each uses $0.03; a third that could cost
    // $0.10 on top of $0.06 spent would pass it, and is refused before anything is signed.
    const { deps, address } = await buyer({ AGORA_DAILY_CAP: "0.15" });
    expect(await buy(deps, "3")).toMatchObject({ status: "delivered", priceUsd: "$0.03" });
    expect(await buy(deps, "3")).toMatchObject({ status: "delivered", priceUsd: "$0.03" });
    const third = await buy(deps, "3");
    expect(third).toMatchObject({ status: "refused", signed: false });
    expect(await stack.chain.usdcBalance(address)).toBe(FUNDS - 60_000n);
  });

  it("is not sold through make-purchase, whose payments are for a fixed price", async () => {
    const client = await connect(url);
    closing.push(() => client.close());
    const answer = await client.callTool({
      name: "make-purchase",
      arguments: {
        itemId: "summarise",
        params: { pages: "3" },
        signedTransaction: "x",
        paymentMethod: "USDC_BASE_SEPOLIA",
      },
    });
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toMatch(
      /is metered \(up to \$0\.10 a call\): buy it through its own tool summarise.*Nothing was charged\./,
    );
  });

  it("delivers once for one signed maximum: the same payment sent again is refused and moves nothing more", async () => {
    const { key, address } = await buyer();
    const client = await connect(url);
    closing.push(() => client.close());
    const { required, payment } = await signUptoPayment(client, "summarise", { pages: "3" }, key, stack.chain.rpcUrl);
    expect(required.accepts[0]).toMatchObject({
      scheme: "upto",
      amount: "100000",
      extra: { facilitatorAddress: stack.facilitator.address },
    });
    const call = () =>
      client.callTool({ name: "summarise", arguments: { pages: "3" }, _meta: { [X402_PAYMENT_META]: payment } });
    const first = await call();
    expect(first.isError).toBeFalsy();
    expect(first._meta?.["x402/payment-response"]).toMatchObject({ success: true, amount: "30000" });
    const again = await call();
    expect(again.isError).toBe(true);
    expect(JSON.stringify(again.structuredContent)).toMatch(/already used/);
    expect(await stack.chain.usdcBalance(address)).toBe(FUNDS - 30_000n);
  });
});
