// `npm run sandbox`: the whole paid flow offline, on loopback. A local chain answering as Base Sepolia with
// sandbox USDC, an x402 facilitator settling on it, two paid reference servers built on Agora's kit, a kit server
// selling by use (a metered item and a payment-channel item), and one paid server built on x402's own MCP transport
// (not the kit), all registered in the site's database as approved
// listings and probed for real, a freshly funded buyer wallet, and the site itself.
// Prints what a person needs next and writes the same as JSON (.data/sandbox.json). Ctrl-C stops it all.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { formatUsd } from "@agora-mcp/protocol";
import { openDatabase } from "@/db/connect";
import { insertListing } from "@/lib/listings/write";
import { recordCheck } from "@/lib/listings/checks/drift";
import { listings, salesCursors } from "@/db/schema";
import { PARKED_REFERENCE_SERVER_URL, pointSampleListingsAt } from "@/lib/sample-catalogue/probes";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server";
import { PAID_TOOL as X402_TRANSPORT_PAID_TOOL, startX402TransportServer } from "@/examples/x402-transport-server";
import { createPayPerUseServer } from "@/examples/pay-per-use-server";
import { probeListingServer } from "@/lib/listings/checks/probe-listing";
import { walletFromKey } from "@agora-mcp/client";
import { reloadEnv } from "@/lib/env";
import { runTestPurchases } from "@/lib/test-purchases/run";
import { clientConfigFor } from "@/lib/deployment";
import { ANVIL_TEST_KEYS, startChain, USDC_ADDRESS, type LocalChain } from "./chain";
import { startFacilitator, type LocalFacilitator } from "./facilitator";
import { checkPortsFree } from "./ports";
import { relayMail } from "./mail";
import { ensureReviewer } from "./reviewer";
import { warmSite } from "./warm-site";

const { values: args } = parseArgs({
  options: {
    "chain-port": { type: "string", default: "8545" },
    "facilitator-port": { type: "string", default: "4020" },
    "server-port": { type: "string", default: "8080" },
    "site-port": { type: "string", default: "3000" },
    "block-time": { type: "string", default: "1" },
    "job-seconds": { type: "string", default: "90" },
    "buyer-usdc": { type: "string", default: "10" },
    "test-purchase-budget": { type: "string", default: "1.00" },
    "no-site": { type: "boolean", default: false },
    out: { type: "string", default: ".data/sandbox.json" },
    "pglite-dir": { type: "string" },
  },
});

function port(name: keyof typeof args): number {
  const value = Number(args[name]);
  if (!Number.isInteger(value) || value < 1 || value > 65_535) throw new Error(`--${name} must be a port number`);
  return value;
}

/**
 * The site reads sales from the sandbox chain every two seconds from its first block, counting a sale as soon as it
 * is mined (a local chain has no reorgs to wait out), so a purchase through the client shows within seconds.
 */
function salesSettings(rpcUrl: string) {
  return {
    CHAIN_RPC_URLS: `eip155:84532=${rpcUrl}`,
    SALES_INDEX_INTERVAL_SECONDS: "2",
    SALES_CONFIRMATIONS: "0",
    SALES_BACKFILL_BLOCKS: "10000000",
  };
}

/**
 * The sandbox's providers, each paid into its own fresh wallet: two reference servers on Agora's kit, one kit server
 * selling by use (examples/pay-per-use-server: metered summaries, lookups through a payment channel), and one on
 * x402's own MCP transport (examples/x402-transport-server), whose tools/list says nothing about payment: its owner
 * names the paid tool, as the submit form's "Which tools charge?" does, and the probe reads its price unpaid.
 */
type Provider = {
  slug: string;
  name: string;
  description: string;
  categories: string[];
  kind: "kit" | "pay-per-use" | "x402-transport";
};
const PROVIDERS: Provider[] = [
  {
    slug: "sandbox-weather-and-reports",
    name: "Sandbox Weather & Reports",
    description:
      "A paid reference server on the local sandbox chain: current weather ($0.01), market reports ($0.25), free page screenshots and asynchronous logo renders ($0.10); every paid item is also its own x402-paid tool.",
    categories: ["Data", "AI"],
    kind: "kit",
  },
  {
    slug: "sandbox-studio",
    name: "Sandbox Studio",
    description:
      "A second paid reference server on the local sandbox chain, with its own wallet: the same items, so an agent can compare two providers.",
    categories: ["Images", "Data"],
    kind: "kit",
  },
  {
    slug: "sandbox-pages-and-words",
    name: "Sandbox Pages & Words",
    description:
      "A kit server on the local sandbox chain selling by use: summaries metered at a cent a page, up to $0.10 (you pay the pages read), and word lookups at $0.001 a call through a payment channel (one deposit, then a voucher per call).",
    categories: ["Data"],
    kind: "pay-per-use",
  },
  {
    slug: "sandbox-forecast-x402",
    name: "Sandbox Forecast (x402 MCP transport)",
    description:
      "A paid server built on x402's own MCP transport, not on Agora's kit: tomorrow's forecast for a city ($0.01), paid per call in the tool call's _meta.",
    categories: ["Data"],
    kind: "x402-transport",
  },
];

/** A newcomer's few channel calls show on the site within a minute, not at the kit's fifty calls or five minutes. */
const SANDBOX_CLAIMS = { claimEvery: 10, claimIntervalSeconds: 60 };

/** The sandbox's own embedded database, beside its buyer wallet: `npm run dev`'s .data/pglite is never touched. */
const SANDBOX_PGLITE_DIR = ".data/sandbox/pglite";

const started: {
  chain?: LocalChain;
  facilitator?: LocalFacilitator;
  servers: Pick<ReferenceServer, "url" | "close">[];
  site?: ChildProcess;
} = { servers: [] };

async function stopAll(): Promise<void> {
  const site = started.site;
  if (site && site.exitCode === null) {
    const exited = new Promise((r) => site.once("exit", r));
    site.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (site.exitCode === null) site.kill("SIGKILL");
  }
  await Promise.all(started.servers.map((s) => s.close()));
  await started.facilitator?.close();
  await started.chain?.stop();
}

async function main() {
  await checkPortsFree([
    { flag: "chain-port", port: port("chain-port") },
    { flag: "facilitator-port", port: port("facilitator-port") },
    ...PROVIDERS.map((_, i) => ({ flag: "server-port", port: port("server-port") + i })),
    ...(args["no-site"] ? [] : [{ flag: "site-port", port: port("site-port") }]),
  ]);
  const out = path.resolve(args.out!);
  fs.rmSync(out, { force: true });
  const blockTime = Number(args["block-time"]);
  const jobSeconds = Number(args["job-seconds"]);
  const buyerUnits = BigInt(Math.round(Number(args["buyer-usdc"]) * 100)) * 10_000n;

  console.log("Starting the local chain (anvil, chain id 84532)…");
  started.chain = await startChain({ port: port("chain-port"), blockTime });
  started.facilitator = await startFacilitator({
    rpcUrl: started.chain.rpcUrl,
    privateKey: ANVIL_TEST_KEYS.facilitator,
    port: port("facilitator-port"),
  });

  const providers = [];
  for (const [i, provider] of PROVIDERS.entries()) {
    const wallet = privateKeyToAccount(generatePrivateKey()).address; // only its address is needed: it receives
    const server =
      provider.kind === "kit"
        ? await startReferenceServer({
            port: port("server-port") + i,
            walletAddress: wallet,
            facilitatorUrl: started.facilitator.url,
            jobSeconds,
            name: provider.slug,
          })
        : provider.kind === "pay-per-use"
          ? await createPayPerUseServer({
              walletAddress: wallet,
              facilitatorUrl: started.facilitator.url,
              name: provider.slug,
              claim: SANDBOX_CLAIMS,
            }).listen({ port: port("server-port") + i })
          : await startX402TransportServer({
              port: port("server-port") + i,
              payTo: wallet,
              facilitatorUrl: started.facilitator.url,
              units: 10_000n,
            });
    started.servers.push(server);
    providers.push({
      ...provider,
      url: server.url,
      wallet,
      paidTools: provider.kind === "x402-transport" ? [X402_TRANSPORT_PAID_TOOL] : [],
    });
    // Listed in the facilitator's discovery list too, so an Agora with INGEST_SOURCES=x402-discovery=<facilitator> finds it.
    started.facilitator.discovery.add({
      resource: server.url,
      type: "mcp",
      x402Version: 2,
      accepts: [],
      lastUpdated: new Date().toISOString(),
      serviceName: provider.name,
      description: provider.description,
    });
  }

  // A fresh buyer each run, funded with sandbox USDC; its key goes to a 0600 file, never to the screen.
  const buyerKey = generatePrivateKey();
  const buyer = privateKeyToAccount(buyerKey);
  await started.chain.mintUsdc(buyer.address, buyerUnits);
  const walletDir = path.join(path.dirname(out), "sandbox");
  fs.mkdirSync(walletDir, { recursive: true, mode: 0o700 });
  const walletFile = path.join(walletDir, "buyer-wallet.json");
  fs.writeFileSync(
    walletFile,
    `${JSON.stringify({ address: buyer.address, privateKey: buyerKey, createdAt: new Date().toISOString() }, null, 2)}\n`,
    { mode: 0o600 },
  );
  fs.chmodSync(walletFile, 0o600);

  // The site's own test-purchase wallet, funded too; its key reaches the site only as a setting (never a file or the screen).
  const testPurchaseKey = generatePrivateKey();
  const testPurchaseWallet = walletFromKey(testPurchaseKey);
  await started.chain.mintUsdc(testPurchaseWallet.address, 5_000_000n);
  const testPurchaseEnv = {
    CHAIN_RPC_URLS: `eip155:84532=${started.chain.rpcUrl}`,
    TEST_PURCHASE_WALLET_KEY: testPurchaseKey,
    TEST_PURCHASE_DAILY_BUDGET: args["test-purchase-budget"]!,
    TEST_PURCHASE_MAX_PRICE: "0.10",
  };
  Object.assign(process.env, testPurchaseEnv);
  reloadEnv();

  // Register both servers as approved listings and let the probe earn (or refuse) their badge.
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // An embedded database of its own (not `npm run dev`'s .data/pglite): it holds only what an agent here can buy.
  const pgliteDir = args["pglite-dir"] ?? process.env.PGLITE_DIR ?? SANDBOX_PGLITE_DIR;
  const conn = await openDatabase({ databaseUrl, pgliteDir });
  const registered = [];
  let testPurchases = {};
  let reviewer;
  try {
    // No sample catalogue: none of it is a server the sandbox runs, so an agent's "search Agora for weather servers"
    // ranked made-up listings it could not buy (no such host) above the sandbox's own. A PostgreSQL database seeded
    // elsewhere may hold samples: they are parked on a reserved .example name, never looked up, probed or test-bought.
    await pointSampleListingsAt(conn.db, PARKED_REFERENCE_SERVER_URL);
    // The reviewer who approves submissions here: a fresh password each run, printed below.
    reviewer = await ensureReviewer(conn.db);
    // Every run starts a new chain: what the sales indexer read of the last one means nothing here.
    await conn.db.delete(salesCursors);
    for (const p of providers) {
      // A second run starts clean: last run's sandbox listings (other wallets, maybe other ports) go first.
      await conn.db.delete(listings).where(eq(listings.slug, p.slug));
      await conn.db.delete(listings).where(eq(listings.serverUrl, p.url));
      const listing = await insertListing(conn.db, {
        slug: p.slug,
        name: p.name,
        description: p.description,
        categories: p.categories,
        serverUrl: p.url,
        websiteUrl: null,
        status: "approved",
        price: null,
        paidTools: p.paidTools,
        paidToolsConsentedAt: p.paidTools.length ? new Date() : null,
      });
      const probe = await probeListingServer(listing, { allowPrivateHosts: true });
      const recorded = await recordCheck(conn.db, listing, probe);
      registered.push({
        id: listing.id,
        slug: p.slug,
        name: p.name,
        mcpUrl: p.url,
        payTo: p.wallet,
        verified: recorded.listing?.verified ?? false,
        price: recorded.listing?.price ?? null,
        probeError: probe.error,
      });
    }
    // The first round of test purchases now, so the servers show theirs as soon as the site is up; the site's
    // schedule buys again after TEST_PURCHASE_INTERVAL_SECONDS.
    const budgetUnits = BigInt(Math.round(Number(args["test-purchase-budget"]) * 1_000_000));
    if (budgetUnits > 0n) {
      const round = await runTestPurchases(conn.db, {
        wallet: testPurchaseWallet,
        budgetUnits,
        maxUnits: 100_000n,
        intervalMs: 7 * 86_400_000,
        timeoutMs: 30_000,
        allowPrivateHosts: true,
      });
      testPurchases = round.recorded;
    }
  } finally {
    await conn.close();
  }

  const sitePort = port("site-port");
  const registryUrl = `http://localhost:${sitePort}`;
  // The agent config block the site's pages show (and this prints): the site's own, plus this chain and buyer wallet.
  const blockEnv = { SITE_URL: registryUrl, SANDBOX_RPC_URL: started.chain.rpcUrl, SANDBOX_WALLET_FILE: walletFile };
  Object.assign(process.env, blockEnv);
  const agentConfig = clientConfigFor();
  if (!args["no-site"]) {
    // The site opens the same database after us (one process per embedded data directory). Its pages and the
    // client tarball it serves name its own origin.
    const siteEnv = {
      ...process.env,
      ...testPurchaseEnv,
      ...blockEnv,
      NEXT_TELEMETRY_DISABLED: "1",
      PROBE_ALLOW_PRIVATE_HOSTS: "true",
      ALLOW_PRIVATE_SERVER_URLS: "true",
      ...salesSettings(started.chain.rpcUrl),
      PGLITE_DIR: pgliteDir,
    };
    execFileSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/build-downloads.ts", "--dev"], {
      env: siteEnv,
      stdio: ["ignore", "ignore", "inherit"],
    });
    // Bound to loopback only: nothing off this machine can reach the sandbox's site.
    started.site = spawn(
      process.execPath,
      [
        "--import",
        "./server/client-address.mjs",
        "--import",
        "./server/dev-listeners.mjs",
        "node_modules/next/dist/bin/next",
        "dev",
        "-H",
        "127.0.0.1",
        "-p",
        String(sitePort),
      ],
      {
        env: siteEnv,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    // The site's log stays quiet here but for the mail it would have sent (no SMTP in the sandbox): each message's link.
    relayMail(started.site.stdout!);
    started.site.once("exit", (code) => {
      if (code) console.error(`The site exited with code ${code}.`);
    });
    void warmSite(registryUrl).then((ok) => {
      if (ok && !stopping)
        console.log(
          `\nThe site is ready at ${registryUrl}: its pages and MCP endpoint answer (compiled on first use by next dev).`,
        );
    });
  }

  const balance = await started.chain.usdcBalance(buyer.address);
  const summary = {
    registryUrl: args["no-site"] ? null : registryUrl,
    rpcUrl: started.chain.rpcUrl,
    chainId: 84532,
    network: "base-sepolia",
    usdcAddress: USDC_ADDRESS,
    facilitatorUrl: started.facilitator.url,
    servers: registered,
    buyer: { address: buyer.address, usdcUnits: balance.toString(), walletFile },
    testPurchases: { wallet: testPurchaseWallet.address, firstRound: testPurchases },
    reviewer: reviewer && { email: reviewer.email, password: reviewer.password },
    agentConfig: JSON.parse(agentConfig) as unknown,
    startedAt: new Date().toISOString(),
    pid: process.pid,
  };
  fs.writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);

  console.log(`
Agora sandbox is running (loopback only: every part listens on 127.0.0.1, nothing here touches a public network).
  The site may probe, list and test-buy servers on private and loopback addresses (PROBE_ALLOW_PRIVATE_HOSTS,
  ALLOW_PRIVATE_SERVER_URLS), so it can check and buy from the servers below; never set those on a deployment.
  Registry:     ${args["no-site"] ? "(not started: --no-site)" : `${registryUrl}  (the site starts in a few seconds)`}
  Chain:        ${started.chain.rpcUrl}  (anvil answering as Base Sepolia, chain id 84532; block every ${blockTime || "tx"} s)
  USDC:         ${USDC_ADDRESS}  (sandbox token, EIP-3009)
  Facilitator:  ${started.facilitator.url}
${registered.map((s) => `  Server:       ${s.name}: ${s.mcpUrl}  ${s.verified ? "Verified" : `not verified${s.probeError ? ` (${s.probeError})` : ""}`}; paid into ${s.payTo}`).join("\n")}
  Your server:  any address can receive its sales here, e.g. ${privateKeyToAccount(generatePrivateKey()).address} (no key needed to receive; the site reads sales from the chain)
  Test buys:    the site's wallet ${testPurchaseWallet.address} buys from each paid listing (${JSON.stringify(testPurchases)})
  Buyer wallet: ${buyer.address}  holds ${formatUsd(balance)} USDC; key in ${path.relative(process.cwd(), walletFile)} (mode 0600)
  Reviewer:     ${reviewer ? `${reviewer.email}  password ${reviewer.password}  (sign in at ${registryUrl}/login, approve at ${registryUrl}/admin/review)` : "(none)"}
  Mail:         not sent anywhere; each message's link is printed here as "Mail to …".

Your assistant's config block (claude_desktop_config.json), ready to paste; ${registryUrl}/getting-started shows the same:
${agentConfig}

The same as JSON: ${path.relative(process.cwd(), out)}. Ctrl-C stops everything.`);
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping the sandbox…");
    void stopAll().then(() => process.exit(0));
  });
}

main().catch(async (error: unknown) => {
  console.error(`Sandbox failed: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll();
  process.exit(1);
});
