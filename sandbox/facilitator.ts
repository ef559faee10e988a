// An x402 facilitator on loopback that verifies and settles exact payments (v1 and v2), `upto` payments (v2,
// through Permit2: the amount a metered call used, up to the signed maximum) and `batch-settlement` channels (v2:
// deposits, vouchers, batched claims, settlement and refunds) on the local chain, built on @x402/core's facilitator
// and @x402/evm's exact, upto and batch-settlement schemes with a viem wallet: the same code a hosted
// facilitator runs, pointed at anvil. POST /verify, POST /settle, GET /supported, and GET /discovery/resources
// (the Bazaar list of what the sandbox declares: sandbox/discovery-list.ts).
// Every settlement is sent from one account, so concurrent settlements must not race for its nonce: the
// account has a nonce manager of its own (viem's, which remembers the last nonce it handed out), and the
// broadcast itself (nonce, gas estimate, signing, eth_sendRawTransaction) runs through a serial queue, so a
// failed send that makes the manager re-read the chain can never hand out a nonce another send holds.
// Waiting for receipts is not queued: twenty settlements broadcast one after another and land together.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { x402Facilitator } from "@x402/core/facilitator";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { UptoEvmScheme } from "@x402/evm/upto/facilitator";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/facilitator";
import { createWalletClient, http as viemHttp, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createNonceManager, jsonRpc } from "viem/nonce";
import { baseSepolia } from "viem/chains";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { discoveryAnswer, discoveryList, type DiscoveryList } from "./discovery-list";
import { serialQueue } from "./serial";

export type LocalFacilitator = {
  url: string;
  address: `0x${string}`;
  discovery: DiscoveryList;
  close: () => Promise<void>;
};

export type FacilitatorOptions = {
  rpcUrl: string;
  privateKey: `0x${string}`;
  port?: number;
  host?: string;
  /** Called with the time each settlement spent broadcasting its transaction and waiting for the receipt. */
  onChainTiming?: (timing: { step: "broadcast" | "receipt"; ms: number }) => void;
};

const MAX_BODY = 64 * 1024;
const TRANSACTION_FAILED = "invalid_exact_evm_transaction_failed";

/**
 * A settlement answer whose errorReason is a reason code. The scheme's v1 path puts viem's whole error (RPC
 * URL, request body) into errorReason and its v2 path appends it to the code; clients act on the code, and
 * the detail (first line, bounded) stays in errorMessage for the seller's log.
 */
function asCode<T extends { errorReason?: string; errorMessage?: string }>(settled: T): T {
  if (!settled.errorReason) return settled;
  const code = /^[a-z0-9]+(?:_[a-z0-9]+)+/.exec(settled.errorReason)?.[0];
  const detail = code === settled.errorReason ? settled.errorMessage : settled.errorReason;
  return { ...settled, errorReason: code ?? TRANSACTION_FAILED, errorMessage: detail?.split("\n")[0]?.slice(0, 200) };
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw Object.assign(new Error("body too large"), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export async function startFacilitator({
  rpcUrl,
  privateKey,
  port = 0,
  host = "127.0.0.1",
  onChainTiming,
}: FacilitatorOptions): Promise<LocalFacilitator> {
  const timed = async <T>(step: "broadcast" | "receipt", run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      onChainTiming?.({ step, ms: performance.now() - started });
    }
  };
  // A manager per facilitator, not viem's shared one: its memory is keyed by address and chain id, and every
  // local chain answers as 84532, so a shared one would carry nonces over from a chain stopped earlier.
  const account = privateKeyToAccount(privateKey, { nonceManager: createNonceManager({ source: jsonRpc() }) });
  const broadcast = serialQueue();
  const client = createWalletClient({ account, chain: baseSepolia, transport: viemHttp(rpcUrl) }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => client.readContract(args as Parameters<typeof client.readContract>[0]),
    verifyTypedData: (args) => client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
    writeContract: (args) =>
      broadcast(() =>
        timed("broadcast", () => client.writeContract(args as Parameters<typeof client.writeContract>[0])),
      ),
    sendTransaction: (args) => broadcast(() => client.sendTransaction(args)),
    waitForTransactionReceipt: (args) =>
      timed("receipt", () => client.waitForTransactionReceipt({ ...args, pollingInterval: 100 })),
    getCode: (args) => client.getCode(args),
  });
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer, networks: BASE_SEPOLIA.caip2 });
  // Its /supported entry carries this account as `extra.facilitatorAddress`: the buyer's signed witness names it,
  // and only it may settle the payment (the proxy checks the caller).
  facilitator.register(BASE_SEPOLIA.caip2, new UptoEvmScheme(signer));
  // Channels: this account is also the receivers' authorizer (its /supported `extra.receiverAuthorizer`), so a kit
  // server, which holds no key, has its batched claims and its buyers' refunds signed here.
  facilitator.register(BASE_SEPOLIA.caip2, new BatchSettlementEvmScheme(signer, account));

  const discovery = discoveryList();
  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    try {
      if (req.method === "GET" && req.url === "/supported") return send(200, facilitator.getSupported());
      const url = new URL(req.url ?? "/", "http://facilitator.local");
      if (req.method === "GET" && url.pathname === "/discovery/resources") {
        const answer = discoveryAnswer(discovery, url.searchParams);
        return send(answer.status, answer.body);
      }
      if (req.method !== "POST" || (req.url !== "/verify" && req.url !== "/settle"))
        return send(404, { error: "not found" });
      const body = (await readJson(req)) as { paymentPayload?: unknown; paymentRequirements?: unknown };
      if (!body || typeof body !== "object" || !body.paymentPayload || !body.paymentRequirements) {
        return send(400, { error: "paymentPayload and paymentRequirements are required" });
      }
      const payload = body.paymentPayload as Parameters<typeof facilitator.verify>[0];
      const requirements = body.paymentRequirements as Parameters<typeof facilitator.verify>[1];
      if (req.url === "/verify") return send(200, await facilitator.verify(payload, requirements));
      return send(200, asCode(await facilitator.settle(payload, requirements)));
    } catch (error) {
      const status = (error as { status?: number }).status ?? 400;
      return send(status, {
        error: error instanceof Error ? error.message.split("\n")[0]!.slice(0, 200) : "bad request",
      });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${actual}`,
    address: account.address,
    discovery,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
