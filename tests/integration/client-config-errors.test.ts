// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// The agent client with a config block gone wrong, as an MCP host starts it (the built bin over stdio): a wrong RPC,
// a wrong registry, a wallet path with no folder each answer one line naming what failed, where, and the setting.
// And the ledger is the wallet's: a new key in the same wallet file (a sandbox restart) starts with no spending.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ledger, ledgerFileFor, loadSettings } from "@agora-mcp/client";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

const BIN = path.resolve("packages/client/dist/bin.js");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-client-errors-"));
let stack: PaymentStack;
let notFound: http.Server;
let notFoundUrl: string;
/** A loopback address nothing listens on (a port just freed). */
let DEAD = "";

beforeAll(async () => {
  stack = await startPaymentStack();
  notFound = http.createServer((_req, res) => res.writeHead(404).end("Not Found"));
  await new Promise<void>((r) => notFound.listen(0, "127.0.0.1", r));
  notFoundUrl = `http://127.0.0.1:${(notFound.address() as { port: number }).port}`;
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  DEAD = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
  await new Promise((r) => closed.close(r));
});

afterAll(async () => {
  await stack?.stop();
  notFound?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function writeWallet(file: string): `0x${string}` {
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ address, privateKey: key, createdAt: new Date().toISOString() }), {
    mode: 0o600,
  });
  return address;
}

async function withClient<T>(env: Record<string, string>, work: (c: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: { ...getDefaultEnvironment(), HOME: tmp, ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "config-errors", version: "1" });
  await client.connect(transport);
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

describe("the agent client with a wrong config block", () => {
  it("names the RPC it cannot reach, and the setting, and still shows the wallet without its balance", async () => {
    const walletFile = path.join(tmp, "rpc", "wallet.json");
    writeWallet(walletFile);
    const answer = (await withClient(
      { AGORA_RPC_URL: DEAD, AGORA_WALLET_FILE: walletFile, AGORA_REGISTRY_URL: `${DEAD}/api` },
      (c) => c.callTool({ name: "wallet", arguments: {} }),
    )) as CallToolResult;
    expect(answer.isError ?? false).toBe(false);
    const reason = `cannot reach the RPC at ${DEAD} (AGORA_RPC_URL): connection refused (is it running, on that port?)`;
    expect(answer.structuredContent).toMatchObject({ usdc: null, eth: null, balanceError: reason });
    expect(text(answer).split("\n")[0]!.endsWith(`: the balance could not be read (${reason}).`)).toBe(true);
    expect(text(answer)).toMatch(/^Budgets:$/m);
  });

  it("names the registry it cannot reach, or one that is no registry, and says what the setting should be", async () => {
    const walletFile = path.join(tmp, "registry", "wallet.json");
    writeWallet(walletFile);
    const env = { AGORA_RPC_URL: stack.chain.rpcUrl, AGORA_WALLET_FILE: walletFile };
    const dead = (await withClient({ ...env, AGORA_REGISTRY_URL: `${DEAD}/api` }, (c) =>
      c.callTool({ name: "search_servers", arguments: { query: "weather" } }),
    )) as CallToolResult;
    expect(dead.isError).toBe(true);
    expect(text(dead)).toMatch(
      new RegExp(
        `^search_servers failed: cannot reach the registry at ${DEAD}/api/mcp \\(AGORA_REGISTRY_URL\\): connection refused .*followed by /api`,
      ),
    );
    const wrong = (await withClient({ ...env, AGORA_REGISTRY_URL: `${notFoundUrl}/wrong` }, (c) =>
      c.callTool({ name: "search_servers", arguments: { query: "weather" } }),
    )) as CallToolResult;
    expect(text(wrong)).toMatch(
      new RegExp(
        `^search_servers failed: no Agora registry answers at ${notFoundUrl}/wrong/mcp \\(AGORA_REGISTRY_URL\\): it answered HTTP 404`,
      ),
    );
    expect(text(wrong)).not.toContain("\n");
  });

  it("refuses a wallet path whose folder does not exist, in one line naming the setting, and creates nothing", async () => {
    const walletFile = path.join(tmp, "nowhere", "sandbox", "buyer-wallet.json");
    const child = spawn(process.execPath, [BIN], { env: { ...process.env, HOME: tmp, AGORA_WALLET_FILE: walletFile } });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.once("exit", r));
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      `[agora-mcp-client] Bad setting AGORA_WALLET_FILE: there is no folder ${path.dirname(walletFile)}; check the path (npm run sandbox prints its wallet file), or leave the setting out to use ~/.agora/wallet.json.`,
    ]);
    expect(fs.existsSync(path.join(tmp, "nowhere"))).toBe(false);
  });
});

describe("the agent client's ledger", () => {
  it("is per wallet: a new key in the same wallet file shows none of the old key's spending or purchases", async () => {
    const walletFile = path.join(tmp, "sandbox", "buyer-wallet.json");
    const env = { AGORA_RPC_URL: stack.chain.rpcUrl, AGORA_WALLET_FILE: walletFile, AGORA_REGISTRY_URL: `${DEAD}/api` };
    const settings = loadSettings(env);
    const wallet = async () =>
      (await withClient(env, (c) => c.callTool({ name: "wallet", arguments: {} }))).structuredContent as {
        address: string;
        spentToday: string;
        recentPurchases: unknown[];
      };

    const first = writeWallet(walletFile);
    await new Ledger(ledgerFileFor(settings, first)).reserve(
      { server: "Sandbox Weather & Reports", item: "weather-now", units: "30000" },
      1_000_000n,
    );
    expect(await wallet()).toMatchObject({
      address: first,
      spentToday: "0.03",
      recentPurchases: [expect.objectContaining({ item: "weather-now" })],
    });

    // The sandbox starts again: a new buyer written to the same file.
    const second = writeWallet(walletFile);
    expect(await wallet()).toMatchObject({ address: second, spentToday: "0.00", recentPurchases: [] });
  });

  it("takes over a ledger from before it was per wallet only when it began after this wallet was made", async () => {
    const walletFile = path.join(tmp, "legacy", "wallet.json");
    const env = { AGORA_RPC_URL: stack.chain.rpcUrl, AGORA_WALLET_FILE: walletFile, AGORA_REGISTRY_URL: `${DEAD}/api` };
    const legacy = new Ledger(path.join(tmp, "legacy", "ledger-base-sepolia.jsonl"));
    writeWallet(walletFile);
    await legacy.reserve({ server: "Old", item: "weather-now", units: "20000" }, 1_000_000n);
    const spent = async () =>
      (
        (await withClient(env, (c) => c.callTool({ name: "wallet", arguments: {} }))).structuredContent as {
          spentToday: string;
        }
      ).spentToday;
    expect(await spent()).toBe("0.02");
    // Another key later in the same file: the taken-over ledger was the first key's, and stays with it.
    writeWallet(walletFile);
    expect(await spent()).toBe("0.00");
  });
});
