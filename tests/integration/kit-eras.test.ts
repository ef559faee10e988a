// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// A provider-kit server (the reference server) serves both MCP eras from one definition: the SDK v2 client in
// 2026-07-28 and in its 2025 fallback, and the v1 client, each list the same tools, get PaymentRequired in
// structuredContent unpaid, pay through _meta["x402/payment"], get _meta["x402/payment-response"], and collect an
// asynchronous job. Real chain (anvil) and facilitator on loopback; balances move by exactly the price, once.
import http from "node:http";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { x402Client } from "@x402/core/client";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};
type Host = {
  era: string;
  listTools: () => Promise<{ tools: { name: string }[] }>;
  call: (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) => Promise<Result>;
  close: () => Promise<void>;
};

let stack: PaymentStack;
let server: ReferenceServer;
let payee: `0x${string}`;

async function v2Host(mode: "auto" | "legacy"): Promise<Host> {
  const client = new ClientV2({ name: "kit-eras", version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(new TransportV2(new URL(server.url)));
  return {
    era: client.getNegotiatedProtocolVersion() ?? "",
    listTools: () => client.listTools(undefined, { cacheMode: "bypass" }),
    call: (name, args, meta) =>
      client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }) as Promise<Result>,
    close: () => client.close(),
  };
}

async function v1Host(): Promise<Host> {
  const client = new ClientV1({ name: "kit-eras-v1", version: "1.0.0" });
  await client.connect(new TransportV1(new URL(server.url)));
  return {
    era: "2025 (v1 client)",
    listTools: () => client.listTools(),
    call: (name, args, meta) =>
      client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }) as Promise<Result>,
    close: () => client.close(),
  };
}

const hosts: [string, () => Promise<Host>][] = [
  ["the v2 client in 2026-07-28", () => v2Host("auto")],
  ["the v2 client in its 2025 fallback", () => v2Host("legacy")],
  ["the v1 client", v1Host],
];

beforeAll(async () => {
  stack = await startPaymentStack();
  payee = stack.freshAddress() as `0x${string}`;
  server = await startReferenceServer({
    port: 0,
    walletAddress: payee,
    facilitatorUrl: stack.facilitator.url,
    jobSeconds: 1,
  });
});

afterAll(async () => {
  await server?.close();
  await stack?.stop();
});

describe.each(hosts)("a kit server, with %s as the host", (label, open) => {
  it("negotiates its era and lists the same tools as every other host", async () => {
    const host = await open();
    const reference = await v1Host();
    try {
      expect(host.era).toMatch(label.includes("2026") ? /^2026-07-28$/ : /^2025/);
      const [mine, theirs] = await Promise.all([host.listTools(), reference.listTools()]);
      expect(mine.tools).toEqual(theirs.tools);
      expect(mine.tools.map((t) => t.name)).toEqual([
        "price-listing",
        "payment-methods",
        "make-purchase",
        "job-status",
        "weather",
        "market-report",
        "logo-render",
      ]);
    } finally {
      await Promise.all([host.close(), reference.close()]);
    }
  });

  it("answers PaymentRequired unpaid, delivers once paid, and refuses the same payment again without charging twice", async () => {
    const host = await open();
    try {
      const buyer = await stack.fundedBuyer(1_000_000n);
      const unpaid = await host.call("weather", { city: "Lisbon" });
      expect(unpaid.isError).toBe(true);
      const required = unpaid.structuredContent as unknown as PaymentRequired;
      expect(required).toMatchObject({
        x402Version: 2,
        accepts: [{ amount: "10000", payTo: payee, network: "eip155:84532" }],
      });

      const payment = await new x402Client()
        .register("eip155:84532", new ExactEvmScheme(buyer))
        .createPaymentPayload(required);
      const before = await stack.chain.usdcBalance(payee);
      const paid = await host.call("weather", { city: "Lisbon" }, { "x402/payment": payment });
      expect(paid.isError ?? false, JSON.stringify(paid.content)).toBe(false);
      expect(paid._meta?.["x402/payment-response"]).toMatchObject({
        success: true,
        transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        payer: buyer.address,
      });
      expect(JSON.parse(paid.content[0]!.text!)).toMatchObject({ city: "Lisbon" });
      expect(await stack.chain.usdcBalance(payee)).toBe(before + 10_000n);

      const replay = await host.call("weather", { city: "Lisbon" }, { "x402/payment": payment });
      expect(replay.isError).toBe(true);
      expect((replay.structuredContent as { error?: string }).error).toBeTruthy();
      expect(replay._meta?.["x402/payment-response"]).toBeUndefined();
      expect(await stack.chain.usdcBalance(payee)).toBe(before + 10_000n);
    } finally {
      await host.close();
    }
  });

  it("hands an asynchronous item's result to the wallet that paid, through job-status", async () => {
    const host = await open();
    try {
      const buyer = await stack.fundedBuyer(1_000_000n);
      const required = (await host.call("logo-render", { brief: "a fox" }))
        .structuredContent as unknown as PaymentRequired;
      const payment = await new x402Client()
        .register("eip155:84532", new ExactEvmScheme(buyer))
        .createPaymentPayload(required);
      const paid = await host.call("logo-render", { brief: "a fox" }, { "x402/payment": payment });
      const { jobId } = JSON.parse(paid.content[0]!.text!) as { jobId: string };
      await new Promise((r) => setTimeout(r, 1_200));
      const signature = await buyer.signMessage({ message: `Agora job-status ${jobId}` });
      expect((await host.call("job-status", { jobId, signature })).structuredContent).toMatchObject({ status: "done" });
    } finally {
      await host.close();
    }
  });
});

describe("DNS-rebinding protection in both eras", () => {
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  // node:http, not fetch: fetch will not send a Host header of the caller's choosing (a rebound browser does).
  const post = (body: unknown, headers: Record<string, string>) =>
    new Promise<{ status: number; json: () => Promise<unknown> }>((resolve, reject) => {
      const req = http.request(
        server.url,
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              json: async () => JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown,
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });

  it.each([
    [
      "2026-07-28",
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope } },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
    ],
    ["2025", { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, {}],
  ])("refuses a foreign Host or Origin in %s, and answers loopback", async (_era, body, headers) => {
    const port = new URL(server.url).port;
    expect((await post(body, { ...headers, host: `evil.example:${port}` })).status).toBe(403);
    expect((await post(body, { ...headers, origin: "https://evil.example" })).status).toBe(403);
    const ok = await post(body, headers);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { result: { tools: unknown[] } }).result.tools.length).toBe(7);
  });
});
