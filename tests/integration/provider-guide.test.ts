// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// The provider guide's example is real: the code on the page is examples/word-count-server/index.ts verbatim
// (so typecheck compiles it), and run with the env the guide names it sells word counts for real on the local chain.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA, buildRequirements, encodePaymentV1, readPurchaseResult } from "@agora-mcp/protocol";
import { probeServer } from "@/lib/probe";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

const EXAMPLE = "examples/word-count-server/index.ts";
let stack: PaymentStack;
let child: ChildProcess;
let url: string;
/** What the example wrote to standard error: the kit's log. */
let log = "";
const wallet = `0x${"7".repeat(40)}` as const;

beforeAll(async () => {
  stack = await startPaymentStack();
  const port = 23_000 + (process.pid % 1000);
  child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", EXAMPLE], {
    env: {
      ...process.env,
      PORT: String(port),
      SERVER_WALLET_ADDRESS: wallet,
      FACILITATOR_URL: stack.facilitator.url,
      NETWORK: "base-sepolia",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const match = /Selling word counts at (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`example exited with ${code}: ${out}`)));
  });
}, 120_000);

afterAll(async () => {
  child?.kill("SIGTERM");
  await stack?.stop();
});

describe("the provider guide's example", () => {
  it("is on the Setup and Usage page exactly as compiled", () => {
    const page = fs.readFileSync("content/guides/setup-and-usage.mdx", "utf8");
    // Shown as index.js (the code is plain JavaScript too), which the guide's `npm start` runs.
    expect(page).toContain("```js\n" + fs.readFileSync(EXAMPLE, "utf8").trimEnd() + "\n```");
    for (const name of ["SERVER_WALLET_ADDRESS", "NETWORK", "FACILITATOR_URL", "PORT"])
      expect(page).toContain(`${name}=`);
  });

  it("is a verifiable paid server that settles a word count before it answers", async () => {
    const probe = await probeServer(url, { allowPrivateHosts: true });
    expect(probe).toMatchObject({
      reachable: true,
      verifiable: true,
      lowestPrice: 0.01,
      paymentMethods: [{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: wallet }],
    });

    const buyer = await stack.fundedBuyer(100_000n);
    const { v1 } = buildRequirements({ network: BASE_SEPOLIA, units: 10_000n, payTo: wallet, resource: { url } });
    const payment = encodePaymentV1((await new ExactEvmSchemeV1(buyer).createPaymentPayload(1, v1 as never)) as never);
    const client = new Client({ name: "guide-reader", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const paid = readPurchaseResult(
        await client.callTool({
          name: "make-purchase",
          arguments: {
            itemId: "word-count",
            params: { text: "Hello, agents" },
            paymentMethod: "USDC_BASE_SEPOLIA",
            signedTransaction: payment,
          },
        }),
      );
      expect(paid).toMatchObject({ ok: true, toolResult: '{"words":2}' });
      const free = readPurchaseResult(
        await client.callTool({
          name: "make-purchase",
          arguments: {
            itemId: "character-count",
            params: { text: "héllo" },
            paymentMethod: "USDC_BASE_SEPOLIA",
            signedTransaction: "",
          },
        }),
      );
      expect(free).toMatchObject({ ok: true, toolResult: '{"characters":5}' });
    } finally {
      await client.close();
    }
    expect(await stack.chain.usdcBalance(wallet)).toBe(10_000n);
    // The provider sees each purchase in the server's log: tool, price, payer, outcome.
    const paidLine = log.split("\n").find((l) => l.includes("purchase word-count"));
    expect(paidLine).toMatch(
      new RegExp(
        `^\\[@agora-mcp/server\\] purchase word-count \\$0\\.01 by ${buyer.address}: delivered \\(tx 0x[0-9a-f]{64}\\)$`,
      ),
    );
    expect(log).toContain("purchase character-count free: delivered");
    expect(await stack.chain.usdcBalance(buyer.address)).toBe(90_000n);
  });
});
