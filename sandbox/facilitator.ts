// An x402 facilitator on loopback that verifies and settles exact payments (v1 and v2) on the local chain,
// built on @x402/core's facilitator and @x402/evm's exact scheme with a viem wallet: the same code a hosted
// facilitator runs, pointed at anvil. POST /verify, POST /settle, GET /supported.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { x402Facilitator } from "@x402/core/facilitator";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, http as viemHttp, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";

export type LocalFacilitator = { url: string; address: `0x${string}`; close: () => Promise<void> };

export type FacilitatorOptions = {
  rpcUrl: string;
  privateKey: `0x${string}`;
  port?: number;
  host?: string;
  /** Called with the time each settlement spent broadcasting its transaction and waiting for the receipt. */
  onChainTiming?: (timing: { step: "broadcast" | "receipt"; ms: number }) => void;
};

const MAX_BODY = 64 * 1024;

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

export async function startFacilitator({ rpcUrl, privateKey, port = 0, host = "127.0.0.1", onChainTiming }: FacilitatorOptions): Promise<LocalFacilitator> {
  const timed = async <T,>(step: "broadcast" | "receipt", run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      onChainTiming?.({ step, ms: performance.now() - started });
    }
  };
  const account = privateKeyToAccount(privateKey);
  const client = createWalletClient({ account, chain: baseSepolia, transport: viemHttp(rpcUrl) }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => client.readContract(args as Parameters<typeof client.readContract>[0]),
    verifyTypedData: (args) => client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
    writeContract: (args) => timed("broadcast", () => client.writeContract(args as Parameters<typeof client.writeContract>[0])),
    sendTransaction: (args) => client.sendTransaction(args),
    waitForTransactionReceipt: (args) => timed("receipt", () => client.waitForTransactionReceipt({ ...args, pollingInterval: 100 })),
    getCode: (args) => client.getCode(args),
  });
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer, networks: BASE_SEPOLIA.caip2 });

  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    try {
      if (req.method === "GET" && req.url === "/supported") return send(200, facilitator.getSupported());
      if (req.method !== "POST" || (req.url !== "/verify" && req.url !== "/settle")) return send(404, { error: "not found" });
      const body = (await readJson(req)) as { paymentPayload?: unknown; paymentRequirements?: unknown };
      if (!body || typeof body !== "object" || !body.paymentPayload || !body.paymentRequirements) {
        return send(400, { error: "paymentPayload and paymentRequirements are required" });
      }
      const payload = body.paymentPayload as Parameters<typeof facilitator.verify>[0];
      const requirements = body.paymentRequirements as Parameters<typeof facilitator.verify>[1];
      if (req.url === "/verify") return send(200, await facilitator.verify(payload, requirements));
      const settled = await facilitator.settle(payload, requirements);
      // The scheme's errorMessage carries viem's whole revert dump; the reason code is what clients act on.
      return send(200, { ...settled, errorMessage: settled.errorMessage?.split("\n")[0]?.slice(0, 200) });
    } catch (error) {
      const status = (error as { status?: number }).status ?? 400;
      return send(status, { error: error instanceof Error ? error.message.split("\n")[0]!.slice(0, 200) : "bad request" });
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
