// A cross-check run by hand: the legacy `x402` version 1 package (x402@1.2.0, not this project's code) pays every
// item of the sandbox's servers through MonetizedMCP's make-purchase, and balances move by exactly each price.
// Not part of the suite: that package pulls 469 packages (wagmi, Solana) into the install. The suite covers
// version 1 with @x402/core's ExactEvmSchemeV1 (tests/integration/x402-clients.test.ts).
//   npm run sandbox -- --no-site --out /tmp/sandbox.json      (in the repository, in another terminal)
//   cd tools/x402-v1-crosscheck && npm install && node check.mjs /tmp/sandbox.json
import fs from "node:fs";
import { createPaymentHeader } from "x402/client";
import { privateKeyToAccount } from "viem/accounts";
import { createPublicClient, http } from "viem";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const summary = JSON.parse(fs.readFileSync(process.argv[2] ?? "/tmp/sandbox.json", "utf8"));
const wallet = JSON.parse(fs.readFileSync(summary.buyer.walletFile, "utf8"));
const buyer = privateKeyToAccount(wallet.privateKey);
const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const abi = [
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "a", type: "address" }],
    outputs: [{ type: "uint256" }],
  },
];
const reader = createPublicClient({ transport: http(summary.rpcUrl) });
const bal = (a) => reader.readContract({ address: USDC, abi, functionName: "balanceOf", args: [a] });
let ok = 0,
  failed = 0;
for (const server of summary.servers) {
  const client = new Client({ name: "x402-v1-crosscheck", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
  const listing = await client.callTool({ name: "price-listing", arguments: {} });
  const payload = listing.structuredContent ?? JSON.parse(listing.content[0].text);
  const items = payload.items ?? payload;
  for (const item of items) {
    const priceUnits = BigInt(Math.round(Number(item.price.amount ?? item.price) * 1e6));
    // What a v1 client is told to pay: the server's own requirements for the item (x402 v1 shape).
    const requirements = {
      scheme: "exact",
      network: "base-sepolia",
      maxAmountRequired: String(priceUnits),
      resource: server.mcpUrl,
      description: item.name,
      mimeType: "application/json",
      payTo: server.payTo,
      maxTimeoutSeconds: 60,
      asset: USDC,
      extra: { name: "USDC", version: "2" },
    };
    const header = await createPaymentHeader(buyer, 1, requirements);
    const before = [await bal(buyer.address), await bal(server.payTo)];
    const params = Object.fromEntries(
      Object.entries(item.params ?? {}).map(([k, v]) => [k, String(v).replace(/^Example:\s*/, "")]),
    );
    const result = await client.callTool({
      name: "make-purchase",
      arguments: { itemId: item.id, params, paymentMethod: "USDC_BASE_SEPOLIA", signedTransaction: header },
    });
    const after = [await bal(buyer.address), await bal(server.payTo)];
    const moved = before[0] - after[0] === priceUnits && after[1] - before[1] === priceUnits;
    const text = JSON.stringify(result.structuredContent ?? result.content).slice(0, 160);
    console.log(
      `${server.slug} / ${item.id}: ${result.isError ? "REFUSED" : "bought"} price=${priceUnits} balances moved exactly=${moved} ${text}`,
    );
    result.isError || !moved ? failed++ : ok++;
  }
  await client.close();
}
console.log({ ok, failed });
process.exit(failed === 0 && ok > 0 ? 0 : 1);
