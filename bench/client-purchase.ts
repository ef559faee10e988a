// npm run bench:client [-- --purchases 30 --block-time 1]
// The agent client's side of a purchase: the built @agora-mcp/client started over stdio as an MCP host starts
// it, buying a $0.01 item (below the confirmation threshold) from a reference server on the local chain, timed
// from the `purchase` tool call to its result. That span holds the client's own work (re-reading price-listing
// and payment-methods, the balance read, the ledger's locked reserve, signing, the on-chain receipt check) and
// the provider's make-purchase (verify, settle, handler), which the kit reports, so the two are told apart.
// The server is addressed by URL (ENABLE_UNSAFE_DIRECT_ACCESS) to leave the registry out: its lookup is one
// get_server call, measured by bench/mcp-search.ts. Loopback only.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { PurchaseEvent } from "@agora-mcp/server";
import { startReferenceServer } from "@/examples/monetized-server/server";
import { ANVIL_TEST_KEYS, startChain } from "@/sandbox/chain";
import { startFacilitator } from "@/sandbox/facilitator";

const { values } = parseArgs({
  options: {
    purchases: { type: "string", default: "30" },
    "block-time": { type: "string", default: "1" },
    warmup: { type: "string", default: "3" },
  },
});
const purchases = Number(values.purchases);
const warmup = Number(values.warmup);
const blockTime = Number(values["block-time"]);
const BIN = path.resolve("packages/client/dist/bin.js");

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const fmt = (ms: number) => `${Math.round(ms)} ms`;

const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(" ");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-client-bench-"));
const chain = await startChain({ blockTime });
const facilitator = await startFacilitator({ rpcUrl: chain.rpcUrl, privateKey: ANVIL_TEST_KEYS.facilitator });
const events: PurchaseEvent[] = [];
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const server = await startReferenceServer({
  port: 0,
  walletAddress: payTo,
  facilitatorUrl: facilitator.url,
  onPurchase: (e) => events.push(e),
});
const env = {
  AGORA_REGISTRY_URL: "http://127.0.0.1:9/api", // unused: the server is addressed by URL
  AGORA_RPC_URL: chain.rpcUrl,
  AGORA_WALLET_FILE: path.join(tmp, "wallet.json"),
  ENABLE_UNSAFE_DIRECT_ACCESS: "true",
  ENABLE_REQUEST_ELICITATION: "true",
  ELICITATION_THRESHOLD: "0.05", // above the $0.01 item: the bench measures a purchase nobody is asked about
  AGORA_DAILY_CAP: "100",
  AGORA_MAX_PER_PURCHASE: "1",
};
const client = new Client({ name: "bench-host", version: "1" });
const totals: number[] = [];
const free: number[] = [];
try {
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN], env, stderr: "ignore" }));
  const address = JSON.parse(fs.readFileSync(env.AGORA_WALLET_FILE, "utf8")).address as `0x${string}`;
  await chain.mintUsdc(address, 10_000_000n);
  for (let i = 0; i < warmup + purchases; i++) {
    const started = performance.now();
    const result = await client.callTool({
      name: "purchase",
      arguments: { server: server.url, item: "weather-now", params: { city: `c${i}` } },
    });
    const ms = performance.now() - started;
    const status = (result.structuredContent as { status?: string } | undefined)?.status;
    if (status !== "delivered") throw new Error(`purchase ${i}: ${JSON.stringify(result.content).slice(0, 300)}`);
    if (i >= warmup) totals.push(ms);
    const freeStart = performance.now();
    await client.callTool({
      name: "purchase",
      arguments: { server: server.url, item: "page-screenshot", params: { url: `https://example.com/${i}` } },
    });
    if (i >= warmup) free.push(performance.now() - freeStart);
  }
} finally {
  await client.close();
  await server.close();
  await facilitator.close();
  await chain.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}

const provider = events
  .filter((e) => e.itemId === "weather-now" && e.outcome === "delivered")
  .slice(warmup)
  .map((e) => (e.timings?.verifyMs ?? 0) + (e.timings?.settleMs ?? 0) + (e.timings?.handlerMs ?? 0));
const series = {
  "purchase → result (paid $0.01)": totals,
  "  provider: verify + settle + handler": provider,
  "  client: everything else": totals.map((t, i) => t - (provider[i] ?? 0)),
  "purchase → result (free item)": free,
};
console.log(
  `\n${purchases} purchases, one at a time, ${blockTime ? `${blockTime} s blocks` : "automine"}; ${os.cpus().length} CPUs, load ${load} at start; ${new Date().toISOString()}\n`,
);
console.log("| step | p50 | p95 | max |\n|---|---:|---:|---:|");
for (const [name, list] of Object.entries(series)) {
  const sorted = [...list].sort((a, b) => a - b);
  console.log(
    `| ${name} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 95))} | ${fmt(sorted[sorted.length - 1]!)} |`,
  );
}
