// purchase() in its own package, against a real kit server on loopback (MCP over HTTP, its catalogue and its x402
// tool) with the file ledger: the quote is read from the server, and every spending-policy refusal comes before
// anything is signed or the chain is asked (the chain reader here points at a closed port, so reaching it fails the
// test). Paid purchases end to end, on a local chain, are tests/integration/client-spending-policy.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonetizedServer, type RunningServer } from "@agora-mcp/server";
import { chainReader, Ledger, loadSettings, purchase, walletFromKey, type PurchaseDeps } from "@agora-mcp/client";

const PAYEE = "0x000000000000000000000000000000000000dEaD";
const CLOSED = "http://127.0.0.1:9";
const delivered: string[] = [];
let server: RunningServer;
const dirs: string[] = [];

beforeAll(async () => {
  const kit = createMonetizedServer({
    name: "purchase-test",
    walletAddress: PAYEE,
    facilitatorUrl: CLOSED,
    log: () => {},
    items: [
      {
        id: "quote",
        name: "Quote",
        description: "A quote",
        price: "0.05",
        params: { topic: "Example: tea" },
        x402Tool: "quote_x402",
        handler: ({ topic }) => (delivered.push(topic!), `A quote about ${topic}`),
      },
      {
        id: "hello",
        name: "Hello",
        description: "A free greeting",
        price: 0,
        handler: () => (delivered.push("hello"), "Hello"),
      },
    ],
  });
  server = await kit.listen({ port: 0 });
});

afterAll(async () => {
  await server?.close();
  dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

/** A buyer whose wallet folder holds `rules` as its policy.json (none when undefined), and its ledger. */
function buyer(rules?: unknown): { deps: PurchaseDeps; ledger: Ledger } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-purchase-"));
  dirs.push(dir);
  if (rules !== undefined) fs.writeFileSync(path.join(dir, "policy.json"), JSON.stringify(rules));
  const settings = loadSettings({
    AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
    ENABLE_UNSAFE_DIRECT_ACCESS: "true",
    ENABLE_REQUEST_ELICITATION: "false",
    AGORA_RPC_URL: CLOSED,
  });
  const ledger = new Ledger(path.join(dir, "ledger.jsonl"));
  return {
    ledger,
    deps: {
      settings,
      wallet: walletFromKey(generatePrivateKey()),
      ledger,
      chain: chainReader(settings.network, settings.rpcUrl),
    },
  };
}

const buy = (deps: PurchaseDeps, item = "quote", params: Record<string, unknown> = { topic: "tea" }) =>
  purchase({ server: server.url, item, params }, deps);

describe("purchase()", () => {
  it("takes a free item with nothing signed, and records it", async () => {
    const { deps, ledger } = buyer();
    const outcome = await buy(deps, "hello", {});
    expect(outcome).toMatchObject({ status: "free", signed: false, item: "hello", priceUsd: "$0.00" });
    expect(delivered).toContain("hello");
    expect(ledger.attempts().map((a) => a.status)).toEqual(["free"]);
  });

  it("refuses an item the server does not sell, and missing parameters, naming what it does sell and needs", async () => {
    const { deps } = buyer();
    expect(await buy(deps, "cake")).toMatchObject({
      status: "refused",
      signed: false,
      message: expect.stringContaining("(items: quote, hello, quote_x402)"),
    });
    expect(await buy(deps, "quote", {})).toMatchObject({ status: "refused", signed: false, missingParams: ["topic"] });
  });

  it("refuses above the policy's maximum per purchase, on a catalogue item and on the x402 tool alike", async () => {
    const { deps, ledger } = buyer({ maxPerPurchase: "0.01" });
    const item = await buy(deps);
    expect(item).toMatchObject({
      status: "refused",
      signed: false,
      rule: "maxPerPurchase",
      priceUsd: "$0.05",
      payTo: PAYEE,
    });
    expect(item.message).toMatch(
      /rule maxPerPurchase \(policy file .*policy\.json\): "quote" costs \$0\.05, above the maximum of \$0\.01 a purchase\. Nothing was signed\./,
    );
    const tool = await buy(deps, "quote_x402");
    expect(tool).toMatchObject({ status: "refused", signed: false, rule: "maxPerPurchase", item: "quote_x402" });
    expect(ledger.lines()).toEqual([]);
  });

  it("refuses when a budget has less left than the price, saying what is left", async () => {
    const { deps, ledger } = buyer({ budgets: { week: "0.10" }, maxPerPurchase: "0.05" });
    await ledger.append({
      id: "att_earlier",
      time: new Date().toISOString(),
      server: "Elsewhere",
      item: "x",
      units: "80000",
      status: "paid",
    });
    const outcome = await buy(deps);
    expect(outcome).toMatchObject({ status: "refused", signed: false, rule: "budgets.week" });
    expect(outcome.message).toContain(
      '"quote" costs $0.05, but the budget of $0.10 a week (UTC, from Monday) has $0.02 left ($0.08 spent). Nothing was signed.',
    );
    expect(ledger.lines()).toHaveLength(1);
  });

  it("refuses a server or payee the lists keep out, and a buyer over its purchases a minute", async () => {
    const host = new URL(server.url).host;
    expect(await buy(buyer({ servers: { deny: [host] } }).deps)).toMatchObject({
      status: "refused",
      signed: false,
      rule: "servers.deny",
    });
    // The host however a person writes it: another port, a trailing dot.
    expect(await buy(buyer({ servers: { deny: ["127.0.0.1.:8443"] } }).deps)).toMatchObject({
      status: "refused",
      signed: false,
      rule: "servers.deny",
    });
    expect(await buy(buyer({ payees: { deny: [PAYEE.toLowerCase()] } }).deps)).toMatchObject({
      status: "refused",
      signed: false,
      rule: "payees.deny",
    });
    expect(await buy(buyer({ servers: { allow: ["some-other-server"] } }).deps)).toMatchObject({
      status: "refused",
      rule: "servers.allow",
    });
    expect(await buy(buyer({ payees: { allow: ["0x1111111111111111111111111111111111111111"] } }).deps)).toMatchObject({
      status: "refused",
      rule: "payees.allow",
      message: expect.stringContaining(`the payee ${PAYEE} is not on the allow-list`),
    });
    const { deps, ledger } = buyer({ purchasesPerMinute: 1 });
    await ledger.append({
      id: "att_just_now",
      time: new Date().toISOString(),
      server: "Elsewhere",
      item: "x",
      units: "1",
      status: "paid",
    });
    expect(await buy(deps)).toMatchObject({ status: "refused", signed: false, rule: "purchasesPerMinute" });
    expect(delivered.filter((d) => d === "tea")).toEqual([]);
  });
});
