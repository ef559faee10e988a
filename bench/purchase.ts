// npm run bench:purchase [-- --purchases 50 --block-time 1]
// One paid purchase at a time on the local chain (anvil, 1 s blocks by default), timed from the make-purchase
// call to its result, and where the time went: the facilitator's verify, its settle (broadcast of the
// transferWithAuthorization transaction, then the wait for its receipt), and the item's handler.
// Loopback only: anvil, the facilitator and the provider all run in this process or as its children.
import os from "node:os";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { BASE_SEPOLIA, buildRequirements, encodePaymentV1, readPurchaseResult } from "@agora-mcp/protocol";
import { createMonetizedServer, type PurchaseEvent } from "@agora-mcp/server";
import { ANVIL_TEST_KEYS, startChain } from "@/sandbox/chain";
import { startFacilitator } from "@/sandbox/facilitator";

const { values } = parseArgs({
  options: {
    purchases: { type: "string", default: "50" },
    "block-time": { type: "string", default: "1" },
    warmup: { type: "string", default: "3" },
  },
});
const purchases = Number(values.purchases);
const warmup = Number(values.warmup);
const blockTime = Number(values["block-time"]);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const fmt = (ms: number) => `${Math.round(ms)} ms`;

const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(" ");
const chain = await startChain({ blockTime });
const chainTimes: { broadcast: number[]; receipt: number[] } = { broadcast: [], receipt: [] };
const facilitator = await startFacilitator({
  rpcUrl: chain.rpcUrl,
  privateKey: ANVIL_TEST_KEYS.facilitator,
  onChainTiming: (t) => chainTimes[t.step].push(t.ms),
});
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const events: PurchaseEvent[] = [];
const kit = createMonetizedServer({
  name: "bench-provider",
  walletAddress: payTo,
  facilitatorUrl: facilitator.url,
  onPurchase: (e) => events.push(e),
  items: [
    {
      id: "quote",
      name: "Quote",
      description: "A quote",
      price: "0.02",
      params: { topic: "Example: tea" },
      handler: ({ topic }) => `A quote about ${topic}`,
    },
  ],
});
const server = await kit.listen({ port: 0 });
const buyer = privateKeyToAccount(generatePrivateKey());
await chain.mintUsdc(buyer.address, 1_000_000_000n);
const client = new Client({ name: "bench-buyer", version: "1" });
await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
const { v1 } = buildRequirements({ network: BASE_SEPOLIA, units: 20_000n, payTo, resource: { url: server.url } });
const signer = new ExactEvmSchemeV1(buyer);

const totals: number[] = [];
try {
  for (let i = 0; i < warmup + purchases; i++) {
    // Signing is the buyer's side (the agent client's bench measures it); the clock starts at the call.
    const signed = encodePaymentV1((await signer.createPaymentPayload(1, v1 as never)) as never);
    const started = performance.now();
    const outcome = readPurchaseResult(
      await client.callTool({
        name: "make-purchase",
        arguments: {
          itemId: "quote",
          params: { topic: `t${i}` },
          paymentMethod: "USDC_BASE_SEPOLIA",
          signedTransaction: signed,
        },
      }),
    );
    const ms = performance.now() - started;
    if (!outcome.ok) throw new Error(`purchase ${i} failed: ${outcome.reason}`);
    if (i >= warmup) totals.push(ms);
  }
} finally {
  await client.close();
  await server.close();
  await facilitator.close();
  await chain.stop();
}

const measured = events.slice(warmup).filter((e) => e.outcome === "delivered");
const series = {
  "make-purchase → result": totals,
  "facilitator verify": measured.map((e) => e.timings?.verifyMs ?? 0),
  "facilitator settle (total)": measured.map((e) => e.timings?.settleMs ?? 0),
  "  of which broadcast": chainTimes.broadcast.slice(warmup),
  "  of which wait for receipt": chainTimes.receipt.slice(warmup),
  handler: measured.map((e) => e.timings?.handlerMs ?? 0),
};
console.log(
  `\n${purchases} purchases, one at a time, ${blockTime ? `${blockTime} s blocks` : "automine"}; ${os.cpus().length} CPUs, load ${load} at start; ${new Date().toISOString()}\n`,
);
console.log("| step | p50 | p95 | max |\n|---|---:|---:|---:|");
for (const [name, values] of Object.entries(series)) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(
    `| ${name} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 95))} | ${fmt(sorted[sorted.length - 1]!)} |`,
  );
}
const p95 = percentile(
  [...totals].sort((a, b) => a - b),
  95,
);
console.log(`\np95 ${fmt(p95)}: target < 2000 ms ${p95 < 2000 ? "met" : "MISSED"}`);
