// "Cap my agent at $0.30 a day", set in any place a person sets a limit, starts the wallet: the defaults give way
// below (or above) what the person set. Only two values the person set themselves that contradict each other stop
// the client, and the message names both as the person wrote them. Each case runs the built binary as a host runs
// it (stdio, the env of its config block, a policy.json beside the wallet), and reads the `wallet` tool, whose RPC
// here is a loopback port nobody answers on: the address, the rules and the budgets still show.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { chainName } from "@agora-mcp/client";

const BIN = path.resolve(import.meta.dirname, "../dist/bin.js");
// Port 9 (discard) on loopback: nothing listens, so every chain read fails at once.
const DEAD_RPC = "http://127.0.0.1:9";
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A private folder for the wallet, with `policy` written as policy.json beside it when given. */
function home(policy?: unknown): { dir: string; env: Record<string, string> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-budgets-"));
  dirs.push(dir);
  if (policy !== undefined)
    fs.writeFileSync(path.join(dir, "policy.json"), typeof policy === "string" ? policy : JSON.stringify(policy));
  return {
    dir,
    env: {
      AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
      AGORA_RPC_URL: DEAD_RPC,
      AGORA_REGISTRY_URL: "http://127.0.0.1:9/api",
    },
  };
}

type WalletView = {
  address: string;
  network: string;
  localChain: boolean;
  usdc: string | null;
  balanceError?: string;
  dailyCap: string;
  maxPerPurchase: string;
  policy: { rules: string[]; budgets: { rule: string; budget: string; limit: string; left: string }[] };
  funding: string;
};

/** Starts the client over stdio as a host does, and reads its wallet tool. */
async function walletOf(env: Record<string, string>): Promise<{ text: string; data: WalletView; log: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const client = new Client({ name: "budget-walker", version: "1.0.0" });
  try {
    await client.connect(transport).catch((error: unknown) => {
      throw new Error(`the client did not start: ${log || String(error)}`);
    });
    const result = (await client.callTool({ name: "wallet", arguments: {} })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    return { text, data: result.structuredContent as WalletView, log };
  } finally {
    await client.close();
  }
}

/** Starts the client expecting it to refuse: its exit code and what it said. */
function refusalOf(env: Record<string, string>): { status: number | null; stderr: string } {
  const child = spawnSync(process.execPath, [BIN], {
    env: { ...getDefaultEnvironment(), ...env } as NodeJS.ProcessEnv,
    input: "",
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: child.status, stderr: child.stderr };
}

describe("a budget a person sets lowers the defaults below it, and the wallet starts", () => {
  it('policy.json {"budgets": {"day": "0.30"}}: the default maximum per purchase drops to $0.30', async () => {
    const { dir, env } = home({ budgets: { day: "0.30" } });
    const { data, text, log } = await walletOf(env);
    expect(log).toMatch(/; ready\.$/m);
    expect(data).toMatchObject({ dailyCap: "0.30", maxPerPurchase: "0.30" });
    expect(data.policy.rules).toContain(
      `maxPerPurchase (the default, lowered to budgets.day in ${path.join(dir, "policy.json")}): at most $0.30 a purchase`,
    );
    expect(text).toContain(
      `- budgets.day (policy file ${path.join(dir, "policy.json")}): $0.30 a day (UTC); spent $0.00, $0.30 left.`,
    );
  });

  it('policy.json {"budgets": {"hour": "0.20"}}: the maximum drops to $0.20, the daily default stays', async () => {
    const { data } = await walletOf(home({ budgets: { hour: "0.20" } }).env);
    expect(data).toMatchObject({ dailyCap: "1.00", maxPerPurchase: "0.20" });
    expect(data.policy.budgets.map((b) => [b.budget, b.left])).toEqual([
      ["$0.20 an hour (UTC clock hour)", "0.20"],
      ["$1.00 a day (UTC)", "1.00"],
    ]);
  });

  it("AGORA_DAILY_CAP=0.30 alone", async () => {
    const { env } = home();
    const { data } = await walletOf({ ...env, AGORA_DAILY_CAP: "0.30" });
    expect(data).toMatchObject({ dailyCap: "0.30", maxPerPurchase: "0.30" });
    expect(data.policy.rules).toContain(
      "maxPerPurchase (the default, lowered to AGORA_DAILY_CAP): at most $0.30 a purchase",
    );
  });

  it("a per-tool budget in the file lowers the default maximum too", async () => {
    const { data } = await walletOf(home({ perToolPerDay: "0.05" }).env);
    expect(data.maxPerPurchase).toBe("0.05");
  });

  it("AGORA_MAX_PER_PURCHASE=2.00 alone raises the default daily cap to it", async () => {
    const { env } = home();
    const { data } = await walletOf({ ...env, AGORA_MAX_PER_PURCHASE: "2.00" });
    expect(data).toMatchObject({ dailyCap: "2.00", maxPerPurchase: "2.00" });
    expect(data.policy.budgets[0]!.rule).toBe("budgets.day (the default, raised to AGORA_MAX_PER_PURCHASE)");
  });

  it("a bundle's Daily cap set to 0.30, its Most per purchase left at the form's default", async () => {
    const { env } = home();
    const { data } = await walletOf({ ...env, ...bundle({ AGORA_DAILY_CAP: "0.30" }) });
    expect(data).toMatchObject({ dailyCap: "0.30", maxPerPurchase: "0.30" });
    expect(data.policy.rules).toContain(
      'maxPerPurchase (the default, lowered to "Daily cap, in USDC" in the bundle\'s settings): at most $0.30 a purchase',
    );
  });
});

/** The env an MCP bundle's host passes: every option (changed or not) and the bundle's description of them. */
function bundle(changed: Record<string, string>): Record<string, string> {
  const form = {
    ELICITATION_THRESHOLD: { label: "Confirmation threshold, in USDC", default: "0.01" },
    AGORA_MAX_PER_PURCHASE: { label: "Most per purchase, in USDC", default: "0.50" },
    AGORA_DAILY_CAP: { label: "Daily cap, in USDC", default: "1.00" },
  };
  const values = Object.fromEntries(Object.entries(form).map(([name, o]) => [name, changed[name] ?? o.default]));
  return { ...values, AGORA_BUNDLE_SETTINGS: JSON.stringify(form) };
}

describe("two values the person set that contradict each other", () => {
  it("two variables: refused naming both variables, and no wallet is made", () => {
    const { dir, env } = home();
    const { status, stderr } = refusalOf({ ...env, AGORA_DAILY_CAP: "0.30", AGORA_MAX_PER_PURCHASE: "0.40" });
    expect(status).toBe(1);
    expect(stderr).toContain(
      "Spending limits that contradict each other: AGORA_DAILY_CAP ($0.30) is less than AGORA_MAX_PER_PURCHASE ($0.40): no purchase at that maximum could pass the budget. Lower AGORA_MAX_PER_PURCHASE to at most $0.30, or raise AGORA_DAILY_CAP.",
    );
    expect(fs.existsSync(path.join(dir, "wallet.json"))).toBe(false);
  });

  it("a budget in the file and a variable: the file's key path and the variable", () => {
    const { dir, env } = home({ budgets: { day: "0.30" } });
    const { status, stderr } = refusalOf({ ...env, AGORA_MAX_PER_PURCHASE: "0.40" });
    expect(status).toBe(1);
    expect(stderr).toContain(
      `budgets.day in ${path.join(dir, "policy.json")} ($0.30) is less than AGORA_MAX_PER_PURCHASE ($0.40)`,
    );
  });

  it("two rules of the file: both key paths", () => {
    const { dir, env } = home({ budgets: { hour: "0.20" }, maxPerPurchase: "0.25" });
    const file = path.join(dir, "policy.json");
    expect(refusalOf(env).stderr).toContain(
      `budgets.hour in ${file} ($0.20) is less than maxPerPurchase in ${file} ($0.25)`,
    );
  });

  it("two options of the bundle: both labels as its settings form shows them", () => {
    const { env } = home();
    const { status, stderr } = refusalOf({
      ...env,
      ...bundle({ AGORA_DAILY_CAP: "0.30", AGORA_MAX_PER_PURCHASE: "0.40" }),
    });
    expect(status).toBe(1);
    expect(stderr).toContain(
      `"Daily cap, in USDC" in the bundle's settings ($0.30) is less than "Most per purchase, in USDC" in the bundle's settings ($0.40)`,
    );
    expect(stderr).not.toContain("AGORA_");
  });

  it("a bad value in the bundle's form is named by its label", () => {
    const { stderr } = refusalOf({ ...home().env, ...bundle({ AGORA_DAILY_CAP: "30 cents" }) });
    expect(stderr).toContain(
      `Bad setting "Daily cap, in USDC" in the bundle's settings: must be an amount in US dollars such as 0.50`,
    );
  });
});

describe("the wallet tool when the chain cannot be reached", () => {
  it("still shows the address, the rules and what is left of each budget, and says the balance could not be read", async () => {
    const { dir, env } = home({ budgets: { day: "0.80", week: "3.00" }, maxPerPurchase: "0.25" });
    const address = spawnSync(process.execPath, [BIN, "address"], {
      env: { ...getDefaultEnvironment(), ...env } as NodeJS.ProcessEnv,
      encoding: "utf8",
    }).stdout.trim();
    const { data, text } = await walletOf(env);
    expect(data.address).toBe(address);
    expect(data.usdc).toBeNull();
    expect(data.balanceError).toMatch(/^cannot reach the RPC at http:\/\/127\.0\.0\.1:9 \(AGORA_RPC_URL\)/);
    expect(text.split("\n")[0]).toMatch(
      new RegExp(
        `^Wallet ${address} on the local chain at http://127\\.0\\.0\\.1:9 \\(answering as Base Sepolia\\): the balance could not be read \\(cannot reach the RPC`,
      ),
    );
    expect(text).toContain(`- maxPerPurchase (policy file ${path.join(dir, "policy.json")}): at most $0.25 a purchase`);
    expect(text).toContain("$0.80 a day (UTC); spent $0.00, $0.80 left.");
    expect(text).toContain("$3.00 a week (UTC, from Monday); spent $0.00, $3.00 left.");
  });
});

describe("a wallet on a local chain", () => {
  it("is named as the local chain, with no public faucet or explorer", async () => {
    const { data, text, log } = await walletOf(home().env);
    expect(data).toMatchObject({
      network: `the local chain at ${DEAD_RPC} (answering as Base Sepolia)`,
      localChain: true,
    });
    expect(log).toContain(`on the local chain at ${DEAD_RPC} (answering as Base Sepolia); registry`);
    expect(text).not.toMatch(/faucet\.circle\.com|basescan|explorer\./i);
    expect(data.funding).toMatch(/only that chain holds it/);
  });

  it("tells a loopback RPC from a public one", () => {
    expect(chainName(BASE_SEPOLIA, "https://sepolia.base.org")).toBe("Base Sepolia");
    expect(chainName(BASE_SEPOLIA, "https://localhost.example.com")).toBe("Base Sepolia");
    for (const rpc of ["http://127.0.0.1:8545", "http://localhost:8545/", "http://[::1]:8545"])
      expect(chainName(BASE_SEPOLIA, rpc)).toBe("the local chain (answering as Base Sepolia)");
  });
});

describe("the words of a policy file or wallet file it cannot read", () => {
  it("says where a policy file's JSON breaks, by line and column", () => {
    const { dir, env } = home('{\n  "budgets": { "day": "0.30", }\n}\n');
    expect(refusalOf(env).stderr).toContain(
      `Bad spending policy ${path.join(dir, "policy.json")}: rule (file): is not valid JSON at line 2, column 31 (Expected double-quoted property name)`,
    );
  });

  it("says a list must be a list, not zod's words", () => {
    const { env } = home({ servers: { allow: "weather-now" } });
    const { stderr } = refusalOf(env);
    expect(stderr).toContain(
      'rule servers.allow: must be a list in [ ], such as ["weather-now"], not text ("weather-now")',
    );
    expect(stderr).not.toMatch(/Invalid input|expected array/);
  });

  it("names the rules it knows for a misspelt one, and no file a download lacks", () => {
    const { stderr } = refusalOf(home({ budgets: { daily: "0.30" } }).env);
    expect(stderr).toContain(
      "rule budgets.daily: is not a rule this client knows; budgets holds hour, day, week, month",
    );
    expect(stderr).not.toContain("docs/agent-client.md");
  });

  it("says where a wallet file's JSON breaks, never what is there", () => {
    const { dir, env } = home();
    const key = "ab".repeat(32);
    fs.writeFileSync(path.join(dir, "wallet.json"), `{\n  "privateKey": "0x${key}"\n  "address": "0x1"\n}\n`, {
      mode: 0o600,
    });
    const { status, stderr } = refusalOf(env);
    expect(status).toBe(1);
    expect(stderr).toContain(
      `The wallet file ${path.join(dir, "wallet.json")} is not valid JSON (at line 3, column 3).`,
    );
    expect(stderr).not.toContain(key);
  });
});
