// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// The agent client's spending policy with real processes: two client processes sharing one wallet (and so one
// ledger) buy at once from a reference server on a local chain through the real facilitator. The policy file's
// budget holds to the unit: exactly as many purchases as it allows are paid, every other one is refused before
// anything is signed, naming the rule and what is left, and the wallet tool shows the budget spent.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server/server";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

const BIN = path.resolve("packages/client/dist/bin.js");
const PRICE = 10_000n; // weather-now: $0.01
const BUDGET = 50_000n; // $0.05: five purchases
const PER_PROCESS = 6;

let stack: PaymentStack;
let reference: ReferenceServer;
let payTo: `0x${string}`;
const closing: (() => Promise<unknown>)[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-policy-"));

beforeAll(async () => {
  stack = await startPaymentStack();
  payTo = stack.freshAddress();
  reference = await startReferenceServer({ port: 0, walletAddress: payTo, facilitatorUrl: stack.facilitator.url });
});

afterAll(async () => {
  for (const close of closing.reverse()) await close().catch(() => {});
  await reference?.close();
  await stack?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function importKey(env: Record<string, string>, key: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "import-key"], { env: { ...process.env, ...env } });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(err))));
    child.stdin.end(key);
  });
}

async function startClient(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "host", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN],
      env: { ...process.env, ...env } as Record<string, string>,
      stderr: "ignore",
    }),
  );
  closing.push(() => client.close());
  return client;
}

type Outcome = { status: string; message: string; signed: boolean; rule?: string };

describe("a spending policy shared by two client processes", () => {
  it("lets exactly the budget through when both buy at once from one wallet, and refuses the rest before signing", async () => {
    // A month budget: the calendar month (UTC) cannot turn over during the test the way an hour can.
    const dir = path.join(tmp, "shared");
    fs.mkdirSync(dir, { recursive: true });
    const policyFile = path.join(dir, "policy.json");
    fs.writeFileSync(
      policyFile,
      JSON.stringify({ budgets: { month: "0.05" }, maxPerPurchase: "0.01", payees: { allow: [payTo] } }),
    );
    const env = {
      AGORA_REGISTRY_URL: "http://127.0.0.1:9/api", // unused: the server is addressed by URL
      AGORA_RPC_URL: stack.chain.rpcUrl,
      AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
      ENABLE_UNSAFE_DIRECT_ACCESS: "true",
      ENABLE_REQUEST_ELICITATION: "false",
    };
    const key = generatePrivateKey();
    const payer = privateKeyToAccount(key).address;
    await importKey(env, key);
    await stack.chain.mintUsdc(payer, 1_000_000n);
    const [a, b] = await Promise.all([startClient(env), startClient(env)]);

    const buy = (client: Client, i: number) =>
      client
        .callTool(
          { name: "purchase", arguments: { server: reference.url, item: "weather-now", params: { city: `City${i}` } } },
          undefined,
          { timeout: 90_000 },
        )
        .then((r) => r.structuredContent as Outcome);
    const outcomes = await Promise.all(Array.from({ length: PER_PROCESS * 2 }, (_, i) => buy(i % 2 ? a : b, i)));

    const delivered = outcomes.filter((o) => o.status === "delivered");
    const refusedByBudget = outcomes.filter((o) => o.status === "refused");
    expect(delivered).toHaveLength(Number(BUDGET / PRICE));
    expect(refusedByBudget).toHaveLength(PER_PROCESS * 2 - Number(BUDGET / PRICE));
    for (const refusal of refusedByBudget) {
      expect(refusal.signed).toBe(false);
      expect(refusal.rule).toBe("budgets.month");
      expect(refusal.message).toMatch(
        /rule budgets\.month \(policy file .*policy\.json\): "weather-now" costs \$0\.01, but the budget of \$0\.05 a month \(UTC calendar month\) has \$0\.00 left \(\$0\.05 spent\)\. Nothing was signed\./,
      );
    }
    // The chain moved exactly the budget, not one unit more.
    expect(await stack.chain.usdcBalance(payer)).toBe(1_000_000n - BUDGET);
    expect(await stack.chain.usdcBalance(payTo)).toBe(BUDGET);

    const wallet = ((await a.callTool({ name: "wallet", arguments: {} })) as CallToolResult).structuredContent as {
      policy: { file: string; rules: string[]; budgets: { rule: string; spent: string; left: string }[] };
    };
    expect(wallet.policy.file).toBe(policyFile);
    expect(wallet.policy.budgets).toContainEqual(
      expect.objectContaining({ rule: `budgets.month (policy file ${policyFile})`, spent: "0.05", left: "0.00" }),
    );
    expect(wallet.policy.rules).toContain(`payees.allow (policy file ${policyFile}): only these payees: ${payTo}`);
  });

  it("refuses a payee the policy does not allow, naming the rule, with nothing signed or moved", async () => {
    const dir = path.join(tmp, "payees");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "policy.json"), JSON.stringify({ payees: { deny: [payTo] } }));
    const env = {
      AGORA_REGISTRY_URL: "http://127.0.0.1:9/api",
      AGORA_RPC_URL: stack.chain.rpcUrl,
      AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
      ENABLE_UNSAFE_DIRECT_ACCESS: "true",
      ENABLE_REQUEST_ELICITATION: "false",
    };
    const key = generatePrivateKey();
    await importKey(env, key);
    await stack.chain.mintUsdc(privateKeyToAccount(key).address, 100_000n);
    const client = await startClient(env);
    const before = await stack.chain.usdcBalance(payTo);
    const outcome = (
      await client.callTool({
        name: "purchase",
        arguments: { server: reference.url, item: "weather-now", params: { city: "Oslo" } },
      })
    ).structuredContent as Outcome;
    expect(outcome).toMatchObject({ status: "refused", signed: false, rule: "payees.deny" });
    expect(outcome.message).toContain(`the payee ${payTo} is on the deny-list`);
    expect(await stack.chain.usdcBalance(payTo)).toBe(before);
  });
});
