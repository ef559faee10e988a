// `npm run sandbox` as a newcomer runs it: start (the first time with the site), buy through a listed server with the
// funded buyer wallet and see the sale on the site within seconds, stop with Ctrl-C; a second run starts clean. On
// PGlite, and on the PostgreSQL server when DATABASE_URL is set.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Client as AgentClient, StreamableHTTPClientTransport as AgentTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { eq, like } from "drizzle-orm";
import { createPublicClient, http, type Abi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import { afterAll, describe, expect, it } from "vitest";
import {
  BASE_SEPOLIA,
  buildRequirements,
  encodePaymentV1,
  readPricedItems,
  readPurchaseResult,
  Quirks,
  readToolPayload,
} from "@agora-mcp/protocol";
import { openPglite } from "@/db/connect";
import { listings, testPurchases, users } from "@/db/schema";
import { USDC_ABI } from "@/sandbox/chain";
import { walkAgentPath } from "../support/agent-path";
import { walkProviderPath } from "../support/provider-path";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { npmRun, startNpm, stopNpm, STACK_FRAME } from "../support/commands";

type Summary = {
  rpcUrl: string;
  facilitatorUrl: string;
  servers: { slug: string; mcpUrl: string; payTo: `0x${string}`; verified: boolean; price: number }[];
  buyer: { address: `0x${string}`; usdcUnits: string; walletFile: string };
  testPurchases: { wallet: `0x${string}`; firstRound: Record<string, number> };
  agentConfig: unknown;
  reviewer: { email: string; password: string };
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-sandbox-"));
const children: ChildProcess[] = [];
const base = 21_000 + (process.pid % 500) * 10;

// A run a failed test left behind gets Ctrl-C first, so it stops its chain and site too (SIGKILL would leave them).
afterAll(async () => {
  for (const child of children.filter((c) => c.exitCode === null)) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGINT");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}, 60_000);

async function startSandbox(
  databaseEnv: Record<string, string>,
  { site = false } = {},
): Promise<{ child: ChildProcess; summary: Summary; output: () => string }> {
  const out = path.join(tmp, "sandbox.json");
  const ports = [
    "--chain-port",
    String(base),
    "--facilitator-port",
    String(base + 1),
    "--server-port",
    String(base + 2),
    "--site-port",
    String(base + 6),
  ];
  const child = spawn(
    process.execPath,
    [
      "node_modules/tsx/dist/cli.mjs",
      "sandbox/run.ts",
      ...(site ? [] : ["--no-site"]),
      "--out",
      out,
      ...ports,
      "--job-seconds",
      "1",
    ],
    { env: { ...process.env, DATABASE_URL: "", ...databaseEnv }, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 90_000;
  while (!fs.existsSync(out) || !output.includes("Ctrl-C stops everything")) {
    if (child.exitCode !== null) throw new Error(`sandbox exited early (${child.exitCode}): ${output}`);
    if (Date.now() > deadline) throw new Error(`sandbox did not come up: ${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, summary: JSON.parse(fs.readFileSync(out, "utf8")) as Summary, output: () => output };
}

async function stopSandbox(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  child.kill("SIGINT");
  return exited;
}

function portOpen(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

async function buyWeather(summary: Summary) {
  const wallet = JSON.parse(fs.readFileSync(summary.buyer.walletFile, "utf8")) as {
    address: string;
    privateKey: `0x${string}`;
  };
  expect(fs.statSync(summary.buyer.walletFile).mode & 0o777).toBe(0o600);
  const buyer = privateKeyToAccount(wallet.privateKey);
  expect(buyer.address).toBe(summary.buyer.address);
  const server = summary.servers[0]!;
  const client = new Client({ name: "sandbox-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
  try {
    const items = readPricedItems(
      readToolPayload("price-listing", await client.callTool({ name: "price-listing", arguments: {} }), new Quirks()),
      new Quirks(),
    )!;
    const weather = items.find((i) => i.id === "weather-now")!;
    const { v1 } = buildRequirements({
      network: BASE_SEPOLIA,
      units: BigInt(weather.units!),
      payTo: server.payTo,
      resource: { url: server.mcpUrl },
    });
    const payment = await new ExactEvmSchemeV1(buyer).createPaymentPayload(1, v1 as never);
    const started = Date.now();
    const outcome = readPurchaseResult(
      await client.callTool({
        name: "make-purchase",
        arguments: {
          itemId: "weather-now",
          params: { city: "Porto" },
          paymentMethod: "USDC_BASE_SEPOLIA",
          signedTransaction: encodePaymentV1(payment as never),
        },
      }),
    );
    return { outcome, units: BigInt(weather.units!), ms: Date.now() - started, finishedAt: Date.now() };
  } finally {
    await client.close();
  }
}

type SiteSales = {
  allTime: { sales: number; buyers: number; volumeUnits: string };
  lastSale: { txHash: string } | null;
};
type SiteListing = { sales: SiteSales; testPurchase: { outcome: string; transaction: string | null } | null };

/** The listing as the site's JSON API serves it (`next dev` compiles the route on the first request). */
async function siteListing(slug: string): Promise<SiteListing | null> {
  const res = await fetch(`http://127.0.0.1:${base + 6}/api/mcp-agents/${slug}`, {
    signal: AbortSignal.timeout(240_000),
  }).catch(() => null);
  return res?.ok ? ((await res.json()) as SiteListing) : null;
}
const siteSales = async (slug: string) => (await siteListing(slug))?.sales ?? null;

async function usdcBalance(rpcUrl: string, of: `0x${string}`): Promise<bigint> {
  const reader = createPublicClient({ chain: baseSepolia, transport: http(rpcUrl) });
  return (await reader.readContract({
    address: BASE_SEPOLIA.asset,
    abi: USDC_ABI as Abi,
    functionName: "balanceOf",
    args: [of],
  })) as bigint;
}

describe("npm run sandbox", () => {
  it("comes up on PGlite with the site, four verified paid servers (one selling by use, one on x402's own MCP transport) and a funded buyer, sells, shows the sale on the site within seconds, and stops on Ctrl-C; a second run starts clean", async () => {
    const pgliteDir = path.join(tmp, "pglite");
    // No AUTH_SECRET, as a reader runs it: development keeps one secret of its own under .data/.
    const first = await startSandbox({ PGLITE_DIR: pgliteDir }, { site: true });
    expect(first.summary.servers).toHaveLength(4);
    expect(first.summary.servers.every((s) => s.verified)).toBe(true);
    // Priced at their cheapest item: a cent a call, and the pay-per-use server's $0.001 channel lookups.
    expect(first.summary.servers.map((s) => [s.slug, s.price])).toEqual([
      ["sandbox-weather-and-reports", 0.01],
      ["sandbox-studio", 0.01],
      ["sandbox-pages-and-words", 0.001],
      ["sandbox-forecast-x402", 0.01],
    ]);
    // The one not built on Agora's kit is listed and priced like the others.
    expect(first.summary.servers.map((s) => s.slug)).toContain("sandbox-forecast-x402");
    expect(first.summary.buyer.usdcUnits).toBe("10000000");
    // The site is up and shows its own test purchase (which is no sale: the listing's figures are its customers').
    const weatherSlug = first.summary.servers[0]!.slug;
    for (
      const deadline = Date.now() + 240_000;
      (await siteListing(weatherSlug))?.testPurchase?.outcome !== "delivered";
      await new Promise((r) => setTimeout(r, 500))
    ) {
      if (Date.now() > deadline) throw new Error(`the site did not show the test purchase: ${first.output()}`);
    }
    const { outcome, units, finishedAt } = await buyWeather(first.summary);
    expect(outcome).toMatchObject({ ok: true });
    // The purchase shows on the site within seconds (the sandbox indexes every two seconds).
    let shown = await siteSales(weatherSlug);
    while (
      shown?.lastSale?.txHash !== (outcome.ok && outcome.transaction?.toLowerCase()) &&
      Date.now() - finishedAt < 20_000
    ) {
      await new Promise((r) => setTimeout(r, 250));
      shown = await siteSales(weatherSlug);
    }
    // One sale, one buyer: the test purchase, mined before it, is not counted.
    expect(shown).toMatchObject({
      allTime: { sales: 1, buyers: 1, volumeUnits: units.toString() },
      lastSale: { txHash: outcome.ok && outcome.transaction?.toLowerCase() },
    });
    expect(Date.now() - finishedAt).toBeLessThan(20_000);
    expect(outcome.ok && JSON.parse(String(outcome.toolResult))).toMatchObject({ city: "Porto", sample: true });
    expect(await usdcBalance(first.summary.rpcUrl, first.summary.buyer.address)).toBe(10_000_000n - units);
    // The site's own test purchase bought a $0.01 item from each of the three per-call servers before this one (and
    // from no sample): the x402 transport server's forecast too, paid the way its style takes payment; from the
    // pay-per-use server, a metered summary of three pages ($0.03 of up to $0.10), never its channel item.
    expect(first.summary.testPurchases.firstRound).toEqual({ delivered: 4 });
    expect(await usdcBalance(first.summary.rpcUrl, first.summary.servers[0]!.payTo)).toBe(2n * units);
    const x402Server = first.summary.servers.find((s) => s.slug === "sandbox-forecast-x402")!;
    expect(await usdcBalance(first.summary.rpcUrl, x402Server.payTo)).toBe(units);
    expect(await usdcBalance(first.summary.rpcUrl, first.summary.testPurchases.wallet)).toBe(
      5_000_000n - 3n * units - 30_000n,
    );
    // The site listens on loopback only: another address of this machine gets no answer.
    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && !a.internal && a.family === "IPv4");
    if (outside) expect(await portOpen(base + 6, outside.address)).toBe(false);
    // The private key is in the 0600 file only, never on the screen.
    const key = (JSON.parse(fs.readFileSync(first.summary.buyer.walletFile, "utf8")) as { privateKey: string })
      .privateKey;
    expect(first.output()).not.toContain(key.slice(2));

    // The agent builder's path: Getting Started beside the sandbox shows one block, the one the sandbox printed, and
    // the client started from it (off the site's tarball, no npm registry) finds the weather server and buys from it.
    const printed = /ready to paste[^\n]*\n([\s\S]*?)\n\nThe same as JSON/.exec(first.output())?.[1];
    expect(JSON.parse(printed!)).toEqual(first.summary.agentConfig);
    const agent = await walkAgentPath(`http://localhost:${base + 6}`, {
      // The README's own example: every server the search finds is one of the sandbox's, which the agent can buy.
      query: "weather",
      item: "weather-now",
      params: { city: "Lisbon" },
      choose: (slugs) => slugs.find((s) => s === weatherSlug),
    });
    console.log(`agent path: ${agent.ms} ms, ${agent.copiedBlocks} copied block`);
    expect(agent.config).toEqual(first.summary.agentConfig);
    expect(agent.config.mcpServers.agora.env).toMatchObject({
      AGORA_RPC_URL: first.summary.rpcUrl,
      AGORA_WALLET_FILE: first.summary.buyer.walletFile,
      AGORA_REGISTRY_URL: `http://localhost:${base + 6}/api`,
    });
    expect(agent.found).toContain(weatherSlug);
    expect(agent.found.filter((slug) => !slug.startsWith("sandbox-"))).toEqual([]);
    expect(agent.purchase).toMatchObject({ status: "delivered" });
    expect(await usdcBalance(first.summary.rpcUrl, first.summary.buyer.address)).toBe(10_000_000n - 2n * units);
    // The reviewer's sign-in is printed, and the account is an admin with that password (checked by signing in on the site).
    expect(first.output()).toContain(
      `Reviewer:     ${first.summary.reviewer.email}  password ${first.summary.reviewer.password}`,
    );
    // Every address it prints says whose it is; the Building A Server guide sends a provider to the "Your server" line.
    for (const server of first.summary.servers) expect(first.output()).toContain(`; paid into ${server.payTo}`);
    expect(first.output()).toMatch(/Your server: {2}any address can receive its sales here, e\.g\. 0x[0-9a-fA-F]{40} /);
    const signIn = await fetch(`http://127.0.0.1:${base + 6}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: first.summary.reviewer.email, password: first.summary.reviewer.password }),
      signal: AbortSignal.timeout(240_000),
    });
    expect(signIn.status).toBe(200);

    // The provider's path: Building A Server and the Local Testing Guide as the site shows them, /submit, the reviewer's
    // approval, and a purchase through the agent's block.
    const provider = await walkProviderPath({
      origin: `http://localhost:${base + 6}`,
      facilitatorUrl: first.summary.facilitatorUrl,
      port: base + 7,
      reviewer: first.summary.reviewer,
      agentConfig: agent.config,
      wallet: privateKeyToAccount(generatePrivateKey()).address,
    });
    try {
      console.log(`provider path: ${provider.ms} ms, ${provider.copiedBlocks} copied blocks`);
      expect(provider.purchase).toMatchObject({ status: "delivered" });
      expect(provider.serverLog).toMatch(/purchase word-count \$0\.01 by 0x[0-9a-fA-F]{40}: delivered/);
    } finally {
      process.kill(-provider.server.pid!, "SIGTERM");
      fs.rmSync(provider.folder, { recursive: true, force: true });
    }

    // The site's log after the agent's and the provider's calls: no listener warning.
    expect(first.output()).not.toContain("MaxListenersExceededWarning");
    expect(await stopSandbox(first.child)).toBe(0);
    // Chain, facilitator, the four servers and the site.
    for (const port of [base, base + 1, base + 2, base + 3, base + 4, base + 5, base + 6])
      expect(await portOpen(port)).toBe(false);

    const second = await startSandbox({ PGLITE_DIR: pgliteDir });
    expect(second.summary.buyer.address).not.toBe(first.summary.buyer.address);
    expect(await usdcBalance(second.summary.rpcUrl, second.summary.buyer.address)).toBe(10_000_000n);
    expect(await stopSandbox(second.child)).toBe(0);
    const conn = await openPglite(pgliteDir);
    try {
      const rows = await conn.db
        .select({ slug: listings.slug, verified: listings.verified })
        .from(listings)
        .where(like(listings.slug, "sandbox-%"));
      expect(rows.sort((a, b) => a.slug.localeCompare(b.slug))).toEqual([
        { slug: "sandbox-forecast-x402", verified: true },
        { slug: "sandbox-pages-and-words", verified: true },
        { slug: "sandbox-studio", verified: true },
        { slug: "sandbox-weather-and-reports", verified: true },
      ]);
      // Each paid server shows a delivered test purchase, paid on the sandbox chain (the metered one at what it used).
      const bought = await conn.db
        .select({ outcome: testPurchases.outcome, money: testPurchases.money, units: testPurchases.units })
        .from(testPurchases);
      expect(bought.sort((a, b) => Number(a.units! - b.units!))).toEqual([
        { outcome: "delivered", money: "paid", units: 10_000n },
        { outcome: "delivered", money: "paid", units: 10_000n },
        { outcome: "delivered", money: "paid", units: 10_000n },
        { outcome: "delivered", money: "paid", units: 30_000n },
      ]);
      // No sample listing: every approved server an agent finds here is one it can buy (the sandbox's own).
      const approved = await conn.db
        .select({ url: listings.serverUrl, verified: listings.verified })
        .from(listings)
        .where(eq(listings.status, "approved"));
      expect(approved.filter((l) => !l.url.startsWith("http://127.0.0.1:") || !l.verified)).toEqual([]);
      // The reviewer is an admin with a proven address (one account, kept across runs with a new password).
      expect(
        await conn.db.select({ role: users.role }).from(users).where(eq(users.email, first.summary.reviewer.email)),
      ).toEqual([{ role: "admin" }]);
    } finally {
      await conn.close();
    }
  }, 600_000);

  it("stops with one line naming the flag when a port is taken, before it starts or writes anything", async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(base + 6, "127.0.0.1", r));
    try {
      const out = path.join(tmp, "taken.json");
      const child = spawn(
        process.execPath,
        [
          "node_modules/tsx/dist/cli.mjs",
          "sandbox/run.ts",
          "--out",
          out,
          "--chain-port",
          String(base),
          "--facilitator-port",
          String(base + 1),
          "--server-port",
          String(base + 2),
          "--site-port",
          String(base + 6),
        ],
        {
          env: { ...process.env, DATABASE_URL: "", PGLITE_DIR: path.join(tmp, "taken-pglite") },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
      const code = await new Promise((r) => child.once("exit", r));
      expect(code).toBe(1);
      expect(output.trim()).toBe(
        `Sandbox failed: --site-port ${base + 6}: 127.0.0.1:${base + 6} is already in use. Stop what listens there, or start the sandbox with --site-port <another port> (npm run sandbox -- --site-port <port>).`,
      );
      expect(fs.existsSync(out)).toBe(false);
      expect(fs.existsSync(path.join(tmp, "taken-pglite"))).toBe(false);
      expect(await portOpen(base)).toBe(false);
    } finally {
      await new Promise((r) => taken.close(r));
    }
  }, 60_000);

  it.runIf(drivers().includes("postgres"))(
    "registers its servers in a PostgreSQL database",
    async () => {
      let conn: TestConnection | undefined;
      try {
        conn = await openTestDatabase("postgres");
        const run = await startSandbox({ DATABASE_URL: conn.url! });
        expect(run.summary.servers.every((s) => s.verified)).toBe(true);
        expect(await stopSandbox(run.child)).toBe(0);
        const rows = await conn.db
          .select({ slug: listings.slug, status: listings.status })
          .from(listings)
          .where(like(listings.slug, "sandbox-%"));
        expect(rows).toHaveLength(4);
        expect(rows.every((r) => r.status === "approved")).toBe(true);
      } finally {
        await conn?.close();
      }
    },
    180_000,
  );
});

// In this file, not beside the other commands: Next runs one development server per project directory, and the
// sandbox's site is one, so the two must not overlap.
describe("npm run dev", () => {
  it("serves on PORT with its own origin, keeps a sign-in without AUTH_SECRET, and refuses a second process on its embedded database in one line", async () => {
    const port = base + 7;
    const origin = `http://localhost:${port}`;
    const database = { PGLITE_DIR: path.join(tmp, "dev-pglite") };
    const home = path.join(tmp, "dev-home");
    const dev = startNpm("dev", [], { ...database, PORT: String(port) }, home);
    try {
      for (
        const deadline = Date.now() + 300_000;
        !(await fetch(`${origin}/api/health`)
          .then((r) => r.ok)
          .catch(() => false));
        await new Promise((r) => setTimeout(r, 500))
      ) {
        if (dev.child.exitCode !== null || Date.now() > deadline)
          throw new Error(`npm run dev did not answer on ${port}: ${dev.output()}`);
      }
      // It listens on loopback only: another address of this machine gets no answer (HOSTNAME=0.0.0.0 would open it).
      const outside = Object.values(os.networkInterfaces())
        .flat()
        .find((a) => a && !a.internal && a.family === "IPv4");
      if (outside) expect(await portOpen(port, outside.address)).toBe(false);
      expect(await portOpen(port, "127.0.0.1")).toBe(true);
      // Its pages name the origin it serves, never the default port.
      const page = await (await fetch(`${origin}/getting-started`, { signal: AbortSignal.timeout(240_000) })).text();
      expect(page).toContain(`${origin}/downloads/agora-mcp-client.tgz`);
      expect(page).not.toContain("localhost:3000");

      // Register, sign in through Auth.js's route, then open a page: another copy of the auth module reads the cookie.
      const email = `dev-${process.pid}@users.example.com`;
      const password = "a long enough password 1";
      expect(
        (
          await fetch(`${origin}/api/auth/register`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email, password, name: "Dev" }),
          })
        ).status,
      ).toBe(201);
      const jar = new Map<string, string>();
      const keep = (res: Response) => {
        for (const c of res.headers.getSetCookie()) jar.set(c.split("=")[0]!, c.split(";")[0]!);
        return res;
      };
      const cookie = () => [...jar.values()].join("; ");
      const { csrfToken } = (await keep(await fetch(`${origin}/api/nextauth/csrf`)).json()) as { csrfToken: string };
      const signIn = keep(
        await fetch(`${origin}/api/nextauth/callback/password`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
          body: new URLSearchParams({ csrfToken, email, password }),
        }),
      );
      expect(signIn.headers.get("location")).not.toContain("error=");
      const account = await fetch(`${origin}/account`, {
        redirect: "manual",
        headers: { cookie: cookie() },
        signal: AbortSignal.timeout(240_000),
      });
      expect(account.status).toBe(200);
      expect(fs.statSync(".data/development-auth-secret").mode & 0o777).toBe(0o600);

      // A second process on the same embedded database stops with one line that names the setting.
      const second = await npmRun(
        "ingest",
        [],
        { ...database, INGEST_SOURCES: "mcp-registry=https://registry.example" },
        home,
      );
      expect(second.code).toBe(1);
      expect(second.output).not.toMatch(STACK_FRAME);
      expect(second.output.trim()).toMatch(
        new RegExp(
          `^PGLITE_DIR \\S+dev-pglite is in use by process \\d+ \\([^)]*\\): the embedded database takes one process at a time\\. Stop that process first, or set PGLITE_DIR to another directory \\(or DATABASE_URL to a PostgreSQL server\\)\\.$`,
        ),
      );

      // An agent's session: one MCP client, as the Agora client connects, making many calls on the site's /api/mcp.
      const agent = new AgentClient(
        { name: "dev-listeners-test", version: "1" },
        { versionNegotiation: { mode: "auto" } },
      );
      await agent.connect(new AgentTransport(new URL(`${origin}/api/mcp`)), { timeout: 240_000 });
      try {
        for (let call = 0; call < 16; call++) {
          const answer = await agent.callTool(
            { name: "search_servers", arguments: { query: "weather" } },
            { timeout: 240_000 },
          );
          expect(answer.isError ?? false).toBe(false);
        }
      } finally {
        await agent.close();
      }
      // Paths that do not exist: \`next dev\` routes a miss a second time to render its not-found page, each pass adding
      // its own 'close' listeners, 11 on that one response (the warning the sandbox's site printed). The start's
      // preload (server/dev-listeners.mjs) gives each response that room.
      for (const missing of ["/guides/building-a-server", "/api/no-such-route", "/favicon-none.png"]) {
        expect((await fetch(`${origin}${missing}`, { signal: AbortSignal.timeout(240_000) })).status).toBe(404);
      }
    } finally {
      await stopNpm(dev.child);
    }
    expect(dev.output()).not.toMatch(STACK_FRAME);
    // After 16 MCP calls and three misses: Next's development server carries more 'close' listeners on one response
    // than Node's default warns at, and the start gives it the room.
    expect(dev.output()).not.toContain("MaxListenersExceededWarning");
    expect(await portOpen(port)).toBe(false);
  }, 600_000);
});
