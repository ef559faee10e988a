// The agent client (packages/client, over stdio) with the SDK v2 client as its host in MCP 2026-07-28: purchase
// confirmation through input_required (the host asks the person and retries with the answer and the requestState),
// and every way a retried call can be wrong (forged, altered, replayed state; answers that do not answer) refused
// with nothing signed or paid. Real chain, facilitator, registry and kit server on loopback.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { listings } from "@/db/schema";
import { toListingRow } from "@/lib/listings/write";
import { GET, OPTIONS, POST } from "@/app/api/mcp/route";
import { reloadEnv } from "@/lib/env";
import { clientConfig } from "@/lib/listings/presenters/connect-config";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server/server";
import { openTestDatabase, type TestConnection } from "../support/databases";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { serveRoute } from "../support/route-server";

const BIN = path.resolve("packages/client/dist/bin.js");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-client-eras-"));
const BUY = { server: "reference-weather", item: "market-report", params: { segment: "home solar batteries" } };

let stack: PaymentStack;
let reference: ReferenceServer;
let provider: `0x${string}`;
let conn: TestConnection;
let registry: Awaited<ReturnType<typeof serveRoute>>;

type Answer = { action: "accept" | "decline"; content?: Record<string, boolean> };
type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  resultType?: string;
  inputRequests?: Record<string, { params?: { message?: string } }>;
  requestState?: string;
};

async function startHost(name: string, manual: boolean) {
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  const walletFile = path.join(tmp, name, "wallet.json");
  const env = {
    ...clientConfig().mcpServers.agora!.env,
    AGORA_REGISTRY_URL: `${registry.url}/api`,
    AGORA_RPC_URL: stack.chain.rpcUrl,
    AGORA_WALLET_FILE: walletFile,
    ELICITATION_THRESHOLD: "0.10",
  };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "import-key"], { env: { ...process.env, ...env } });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error("import-key failed"))));
    child.stdin.end(key);
  });
  await stack.chain.mintUsdc(address, 1_000_000n);
  const asked: string[] = [];
  const answers: Answer[] = [];
  const client = new Client(
    { name: `host-${name}`, version: "1.0.0" },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: "auto" },
      ...(manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  client.setRequestHandler("elicitation/create", async (request) => {
    asked.push(request.params.message);
    return answers.shift() ?? { action: "decline" };
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN],
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: "pipe",
    }),
  );
  const call = async (args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    (await client.callTool(
      { name: "purchase", arguments: args, ...extra } as never,
      manual ? ({ allowInputRequired: true } as never) : undefined,
    )) as unknown as Result;
  return { client, address, asked, answers, call };
}

const paidTo = () => stack.chain.usdcBalance(provider);

beforeAll(async () => {
  stack = await startPaymentStack();
  provider = stack.freshAddress();
  reference = await startReferenceServer({
    port: 0,
    walletAddress: provider,
    facilitatorUrl: stack.facilitator.url,
    jobSeconds: 1,
  });
  conn = await openTestDatabase("pglite");
  setDatabase(conn);
  process.env.RATE_LIMIT_DISABLED = "1";
  reloadEnv();
  await conn.db.insert(listings).values([
    toListingRow({
      name: "Reference Weather",
      slug: "reference-weather",
      description: "Reference Weather: a paid MCP server for tests.",
      categories: ["AI"],
      serverUrl: reference.url,
      status: "approved",
      price: 0.01,
    }),
  ]);
  registry = await serveRoute({ POST, GET, OPTIONS });
});

afterAll(async () => {
  await registry?.close();
  await conn?.close();
  await reference?.close();
  await stack?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("a 2026-07-28 host confirms purchases through input_required", () => {
  it("asks with the price, payee, network and today's spending; a no pays nothing, a yes pays exactly the price once", async () => {
    const host = await startHost("auto", false);
    try {
      expect(host.client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const before = await paidTo();
      host.answers.push({ action: "decline" });
      const declined = await host.call(BUY);
      expect(declined.structuredContent).toMatchObject({ status: "declined", signed: false });
      expect(host.asked[0]).toMatch(
        /Pay \$0\.25 USDC on the local chain \(answering as Base Sepolia\) to .* for "Market report"\? You pay only if the tool succeeds\. Payee 0x[0-9a-fA-F]{40}; today's spending so far \$0\.00 of/,
      );
      // Which budgets the purchase draws on, and what is left of each before it.
      expect(host.asked[0]).toMatch(
        /It uses \$0\.25 of the \$\d+\.\d+ left in the budget of \$\d+\.\d+ a day \(UTC\) \(budgets\.day \(/,
      );
      expect(await paidTo()).toBe(before);

      host.answers.push({ action: "accept", content: { approve: true } });
      const bought = await host.call(BUY);
      expect(bought.structuredContent).toMatchObject({ status: "delivered", signed: true });
      expect(host.asked).toHaveLength(2);
      expect(await paidTo()).toBe(before + 250_000n);
    } finally {
      await host.client.close();
    }
  });

  it("refuses a forged, altered or replayed requestState and answers that do not answer, with nothing signed or paid", async () => {
    const host = await startHost("manual", true);
    try {
      const before = await paidTo();
      const first = await host.call(BUY);
      expect(first.resultType).toBe("input_required");
      expect(first.inputRequests?.confirm?.params?.message).toMatch(/Pay \$0\.25 USDC/);
      const state = first.requestState!;
      const yes = { confirm: { action: "accept", content: { approve: true } } };

      // Forged and altered: the seal does not hold (the SDK refuses before the tool runs).
      const [head, body, mac] = state.split(".");
      const payload = JSON.parse(Buffer.from(body!, "base64url").toString("utf8")) as {
        p: { quote: { units: string } };
      };
      payload.p.quote.units = "1";
      const altered = `${head}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${mac}`;
      for (const bad of ["v1.forged.state", altered]) {
        await expect(host.call(BUY, { inputResponses: yes, requestState: bad })).rejects.toThrow(
          /Invalid or expired requestState/,
        );
      }
      // A state sealed for this purchase, presented for another item: refused as another purchase.
      const other = await host.call(
        { ...BUY, item: "logo-render", params: { brief: "a fox" } },
        { inputResponses: yes, requestState: state },
      );
      expect(other.structuredContent).toMatchObject({ status: "refused", signed: false });
      expect(other.structuredContent!.message).toMatch(/another purchase/);
      // Answers that do not answer the request.
      const fresh = (await host.call(BUY)).requestState!;
      const unanswered = await host.call(BUY, {
        inputResponses: { other: { action: "accept", content: { approve: true } } },
        requestState: fresh,
      });
      expect(unanswered.structuredContent).toMatchObject({ status: "refused", signed: false });
      expect(unanswered.structuredContent!.message).toMatch(/does not answer the confirmation/);
      // Answers with no state at all.
      const stateless = await host.call(BUY, { inputResponses: yes });
      expect(stateless.structuredContent).toMatchObject({ status: "refused", signed: false });
      expect(await paidTo()).toBe(before);

      // The genuine state pays once; the same state again is a replay.
      const paid = await host.call(BUY, { inputResponses: yes, requestState: state });
      expect(paid.structuredContent).toMatchObject({ status: "delivered", signed: true });
      const replay = await host.call(BUY, { inputResponses: yes, requestState: state });
      expect(replay.structuredContent).toMatchObject({ status: "refused", signed: false });
      expect(replay.structuredContent!.message).toMatch(/used already/);
      expect(await paidTo()).toBe(before + 250_000n);
    } finally {
      await host.client.close();
    }
  });
});
