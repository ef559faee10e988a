// A generic x402 buyer, using only x402's own client packages (@x402/core's client, @x402/evm's exact scheme), pays
// every entry Agora's discovery lists, as a stranger to this project would: read /discovery/resources over HTTP, call the
// entry's tool unpaid, sign the PaymentRequired it answers, call again with `_meta["x402/payment"]`. The same
// entries bought through MonetizedMCP's make-purchase with x402 version 1. Real chain (anvil), real facilitator,
// real kit servers probed into a real database, all on loopback; balances move by exactly the price each time.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startHangingFacilitator } from "../support/hanging-facilitator";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonetizedServer } from "@agora-mcp/server";
import { GET } from "@/app/discovery/resources/route";
import { startReferenceServer } from "@/examples/monetized-server";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { serveRoute } from "../support/route-server";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

type Requirements = PaymentRequired["accepts"][number];
type Entry = {
  resource: string;
  accepts: Requirements[];
  extensions: { bazaar: { info: { input: { toolName: string; example: Record<string, unknown> } } } };
  metadata: { slug: string; itemId?: string; item: string };
};

let stack: PaymentStack;
let conn: TestConnection;
const closing: { close: () => Promise<void> }[] = [];
const sessions = new Map<string, Client>();

/** An MCP session with a server, as any MCP client opens one; one per server URL. */
async function session(url: string): Promise<Client> {
  let client = sessions.get(url);
  if (!client) {
    client = new Client({ name: "generic-x402-buyer", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    sessions.set(url, client);
  }
  return client;
}

/** x402's own client for one wallet: version 2 on Base Sepolia's CAIP-2 id, version 1 on its v1 name. */
function x402Buyer(account: PrivateKeyAccount): x402Client {
  return new x402Client()
    .register("eip155:84532", new ExactEvmScheme(account))
    .registerV1("base-sepolia", new ExactEvmSchemeV1(account));
}

let discoveryUrl: string;

/** The catalogue as a stranger reads it: over HTTP, from the site's discovery route on loopback. */
async function discovery(): Promise<Entry[]> {
  const res = await fetch(`${discoveryUrl}/discovery/resources?limit=100`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return ((await res.json()) as { items: Entry[] }).items;
}

const input = (entry: Entry) => entry.extensions.bazaar.info.input;
const price = (entry: Entry) => BigInt(entry.accepts[0]!.amount);

/** PaymentRequired as the x402 MCP binding carries it: structuredContent of an isError result. */
function paymentRequired(result: CallToolResult): PaymentRequired {
  expect(result.isError).toBe(true);
  return result.structuredContent as unknown as PaymentRequired;
}

async function balances(payer: string, payee: string) {
  return {
    payer: await stack.chain.usdcBalance(payer as `0x${string}`),
    payee: await stack.chain.usdcBalance(payee as `0x${string}`),
  };
}

beforeAll(async () => {
  stack = await startPaymentStack();
  process.env.SITE_URL = "https://agora.test";
  process.env.PROBE_ALLOW_PRIVATE_HOSTS = "true"; // the servers are on loopback, as in the sandbox
  reloadEnv();
  conn = await openTestDatabase(drivers()[0]!);
  setDatabase(conn);
  const site = await serveRoute({ GET });
  closing.push(site);
  discoveryUrl = site.url;
  for (const name of ["Generic Weather", "Generic Studio"]) {
    const server = await startReferenceServer({
      port: 0,
      walletAddress: stack.freshAddress(),
      facilitatorUrl: stack.facilitator.url,
      jobSeconds: 1,
      name,
    });
    closing.push(server);
    const listing = await insertListing(conn.db, {
      name,
      description: `${name}: a kit server paid on the local chain.`,
      categories: ["Data"],
      serverUrl: server.url,
      status: "approved",
    });
    await checkListing(conn.db, listing.id, { allowPrivateHosts: true });
  }
});

afterAll(async () => {
  for (const client of sessions.values()) await client.close();
  for (const c of closing.reverse()) await c.close();
  await conn?.close();
  await stack?.stop();
  delete process.env.SITE_URL;
  delete process.env.PROBE_ALLOW_PRIVATE_HOSTS;
  reloadEnv();
});

describe("a generic x402 client pays every entry discovery lists", () => {
  it("through the x402 MCP binding (version 2): PaymentRequired, a signed payment, the result, exactly the price moved", async () => {
    const entries = await discovery();
    expect(entries).toHaveLength(6); // two servers, three paid items each
    const buyer = await stack.fundedBuyer(5_000_000n);
    const x402 = x402Buyer(buyer);
    for (const entry of entries) {
      const { toolName, example } = input(entry);
      const client = await session(entry.resource);
      const required = paymentRequired(
        (await client.callTool({ name: toolName, arguments: example })) as CallToolResult,
      );
      expect(required.x402Version).toBe(2);
      expect(required.accepts).toEqual(entry.accepts);

      const payee = entry.accepts[0]!.payTo;
      const before = await balances(buyer.address, payee);
      const payment = await x402.createPaymentPayload(required);
      const paid = (await client.callTool({
        name: toolName,
        arguments: example,
        _meta: { "x402/payment": payment },
      })) as CallToolResult;
      expect(paid.isError, `${toolName}: ${JSON.stringify(paid.content)}`).toBeFalsy();
      const settlement = paid._meta?.["x402/payment-response"] as
        { success: boolean; transaction: string; payer: string } | undefined;
      const text = (paid.content[0] as { text: string }).text;
      if (toolName === "logo-render") {
        // An asynchronous item answers its job, unsettled: it settles when the result is ready, and the wallet that
        // paid collects the result (with the settlement's transaction) by signing the job id.
        expect(settlement).toBeUndefined();
        expect(await balances(buyer.address, payee)).toEqual(before);
        const { jobId } = JSON.parse(text) as { jobId: string };
        await new Promise((r) => setTimeout(r, 1_200));
        const signature = await buyer.signMessage({ message: `Agora job-status ${jobId}` });
        let job = (await client.callTool({ name: "job-status", arguments: { jobId, signature } })) as CallToolResult;
        for (let i = 0; i < 20 && (job.structuredContent as { status?: string }).status === "pending"; i++) {
          await new Promise((r) => setTimeout(r, 250));
          job = (await client.callTool({ name: "job-status", arguments: { jobId, signature } })) as CallToolResult;
        }
        expect(job.structuredContent).toMatchObject({
          status: "done",
          transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        });
        expect(await balances(buyer.address, payee)).toEqual({
          payer: before.payer - price(entry),
          payee: before.payee + price(entry),
        });
      } else {
        expect(settlement).toMatchObject({
          success: true,
          transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          payer: buyer.address,
        });
        expect(await balances(buyer.address, payee)).toEqual({
          payer: before.payer - price(entry),
          payee: before.payee + price(entry),
        });
        expect(JSON.parse(text)).toMatchObject({ sample: true, ...example });
      }
    }
  });

  it("through make-purchase with x402 version 1, for every entry that names its MonetizedMCP item", async () => {
    const entries = await discovery();
    const buyer = await stack.fundedBuyer(5_000_000n);
    const x402 = x402Buyer(buyer);
    for (const entry of entries) {
      const itemId = entry.metadata.itemId;
      expect(itemId, `${entry.metadata.slug} ${input(entry).toolName}`).toBeDefined();
      const req = entry.accepts[0]!;
      // A version 1 client knows the v1 network name and reads the amount as maxAmountRequired.
      const v1 = {
        scheme: "exact",
        network: "base-sepolia",
        maxAmountRequired: req.amount,
        resource: entry.resource,
        description: entry.metadata.item,
        mimeType: "application/json",
        payTo: req.payTo,
        maxTimeoutSeconds: req.maxTimeoutSeconds,
        asset: req.asset,
        extra: req.extra,
      };
      const payment = await x402.createPaymentPayload({ x402Version: 1, accepts: [v1] } as unknown as PaymentRequired);
      const signedTransaction = Object.values(new x402HTTPClient(x402).encodePaymentSignatureHeader(payment))[0]!;

      const before = await balances(buyer.address, req.payTo);
      const client = await session(entry.resource);
      const result = (await client.callTool({
        name: "make-purchase",
        arguments: {
          itemId: itemId!,
          params: input(entry).example,
          signedTransaction,
          paymentMethod: "USDC_BASE_SEPOLIA",
        },
      })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        orderId: expect.any(String),
        transaction: expect.stringMatching(/^0x/),
        payer: buyer.address,
      });
      expect(await balances(buyer.address, req.payTo)).toEqual({
        payer: before.payer - price(entry),
        payee: before.payee + price(entry),
      });
    }
  });
});

describe("payments that must not buy anything", () => {
  /** A kit server with two items at one price into one wallet, so only the item a payment names tells them apart. */
  async function twinServer(facilitatorUrl: string, facilitatorTimeoutMs = 5_000, payTo = stack.freshAddress()) {
    const delivered: string[] = [];
    const handler = (id: string) => (params: Record<string, string>) => (
      delivered.push(id),
      `${id} for ${params.topic}`
    );
    const kit = createMonetizedServer({
      name: "twins",
      walletAddress: payTo,
      facilitatorUrl,
      facilitatorTimeoutMs,
      log: () => {},
      items: ["tea", "coffee"].map((id) => ({
        id,
        name: id,
        description: `A ${id} quote`,
        price: "0.01",
        params: { topic: "Example: mornings" },
        handler: handler(id),
      })),
    });
    const server = await kit.listen({ port: 0 });
    closing.push(server);
    const client = new Client({ name: "generic-x402-buyer", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    closing.push({ close: () => client.close() });
    return { client, payTo, delivered };
  }

  const ask = async (client: Client, tool: string) =>
    paymentRequired((await client.callTool({ name: tool, arguments: { topic: "mornings" } })) as CallToolResult);
  const pay = async (client: Client, tool: string, payment: unknown) =>
    (await client.callTool({
      name: tool,
      arguments: { topic: "mornings" },
      _meta: { "x402/payment": payment },
    })) as CallToolResult;

  it("a payment made out for one item, presented to another item's tool at the same price, is refused", async () => {
    const { client, payTo, delivered } = await twinServer(stack.facilitator.url);
    const buyer = await stack.fundedBuyer(1_000_000n);
    const forTea = await x402Buyer(buyer).createPaymentPayload(await ask(client, "tea"));
    const refused = paymentRequired(await pay(client, "coffee", forTea));
    expect(refused.error).toBe(
      'Payment refused: it was made out for another item, not "coffee"; pay the requirements this tool answers',
    );
    expect(delivered).toEqual([]);
    expect(await balances(buyer.address, payTo)).toEqual({ payer: 1_000_000n, payee: 0n });
    // The same payment still buys what it was made out for, once.
    expect((await pay(client, "tea", forTea)).isError).toBeFalsy();
    expect(paymentRequired(await pay(client, "tea", forTea)).error).toMatch(/already used/);
    expect(delivered).toEqual(["tea"]);
    expect(await balances(buyer.address, payTo)).toEqual({ payer: 990_000n, payee: 10_000n });
  });

  it("a version 2 payload whose accepted differs from the requirements offered is refused", async () => {
    const { client, payTo, delivered } = await twinServer(stack.facilitator.url);
    const buyer = await stack.fundedBuyer(1_000_000n);
    const required = await ask(client, "tea");
    // A client that signs a longer validity than the server offered: right amount, payee and token, wrong terms.
    const altered = { ...required, accepts: [{ ...required.accepts[0]!, maxTimeoutSeconds: 3_600 }] };
    const payment = await x402Buyer(buyer).createPaymentPayload(altered);
    const refused = paymentRequired(await pay(client, "tea", payment));
    expect(refused.error).toBe(
      'Payment refused: its accepted requirements differ from those of "tea"; sign the requirements the server answered',
    );
    expect(refused.accepts).toEqual(required.accepts);
    expect(delivered).toEqual([]);
    expect(await balances(buyer.address, payTo)).toEqual({ payer: 1_000_000n, payee: 0n });
  });

  it("a settlement the facilitator never answers: a timeout refusal, the result withheld, nothing charged, and the payment later charges once", async () => {
    // Verifies through the real facilitator, then holds every settlement open without sending it anywhere.
    const hanging = await startHangingFacilitator(stack.facilitator.url);
    closing.push(hanging);
    const stuck = await twinServer(hanging.url, 1_500);
    const buyer = await stack.fundedBuyer(1_000_000n);
    const payment = await x402Buyer(buyer).createPaymentPayload(await ask(stuck.client, "tea"));

    const started = Date.now();
    const refused = paymentRequired(await pay(stuck.client, "tea", payment));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(refused.error).toBe(
      "Payment not settled: the payment facilitator did not confirm the settlement in time. You were not charged. The result is withheld; pay again to get it.",
    );
    expect(refused.error).not.toMatch(/https?:\/\//);
    // The item ran (settlement comes after it), but its result was not handed over.
    expect(stuck.delivered).toEqual(["tea"]);
    expect(await balances(buyer.address, stuck.payTo)).toEqual({ payer: 1_000_000n, payee: 0n });

    // The buyer retries the same payment where the facilitator works: delivered and charged once; again, refused.
    const working = await twinServer(stack.facilitator.url, 5_000, stuck.payTo);
    expect((await pay(working.client, "tea", payment)).isError).toBeFalsy();
    expect(paymentRequired(await pay(working.client, "tea", payment)).error).toMatch(/already used/);
    expect(working.delivered).toEqual(["tea"]);
    expect(await balances(buyer.address, stuck.payTo)).toEqual({ payer: 990_000n, payee: 10_000n });
  });
});
