// Small paid MCP servers on loopback, one per style of the field (@agora-mcp/protocol paid-styles.ts), each speaking
// its style's wire format exactly: how tools/list signals the paid tool (or does not), how the unpaid call asks (a
// tool result, _meta["x402/error"] (Cloudflare's v2, MCPay's v1), Vercel's version 1 structuredContent, a JSON-RPC error 402), the
// key and encoding the payment must arrive in (a payment in any other encoding is refused as missing), and where
// the settlement comes back. The paid tool runs only on a payment that verifies, and settles only when it
// succeeded (x402's MCP wrappers). A payment is verified and settled through a facilitator when one is given
// (a real chain), otherwise here: the EIP-712 signature checked, the nonce recorded as settled (`settled`), so a
// test's chain reader can answer from it.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { getAddress, verifyTypedData } from "viem";
import {
  BASE_SEPOLIA,
  buildRequirements,
  decodePayment,
  isUptoPayload,
  type PaymentPayload,
  type PaymentRequired,
} from "@agora-mcp/protocol";

export type Style = "agora-kit" | "x402-mcp" | "cloudflare-agents" | "vercel-x402-mcp" | "mcpay" | "jsonrpc-402";
export const STYLES: readonly Style[] = [
  "agora-kit",
  "x402-mcp",
  "cloudflare-agents",
  "vercel-x402-mcp",
  "mcpay",
  "jsonrpc-402",
];

/**
 * normal: asks, verifies, runs, settles. ask-again: refuses every payment with another request for payment, nothing
 * settled. no-ask: the "paid" tool runs without asking. raise-price: asks `units` unpaid, then verifies a payment
 * against five times that (a price changed between the ask and the payment). unpayable: offers only terms this
 * wallet cannot pay (another scheme, another network, another token, another transfer method).
 */
export type Behaviour = "normal" | "ask-again" | "no-ask" | "raise-price" | "unpayable";

export type Settled = { nonce: string; transaction: string; from: string; to: string; units: bigint };

export type StyleServer = {
  url: string;
  style: Style;
  paidTool: string;
  freeTool: string;
  counts: { unpaidCalls: number; payments: number; paidRuns: number; freeCalls: number };
  /** Every authorisation the server was sent (its value and payee), in order. */
  signedValues: { value: string; to: string }[];
  settled: Settled[];
  /** The next paid run fails (isError): nothing is settled. */
  failNext: () => void;
  close: () => Promise<void>;
};

const PAYMENT_KEY: Record<Style, string> = {
  "agora-kit": "x402/payment",
  "x402-mcp": "x402/payment",
  "cloudflare-agents": "x402/payment",
  "vercel-x402-mcp": "x402.payment",
  mcpay: "x402/payment",
  "jsonrpc-402": "x402/payment",
};
const RESPONSE_KEY: Record<Style, string> = {
  ...Object.fromEntries(STYLES.map((s) => [s, "x402/payment-response"])),
  "vercel-x402-mcp": "x402.payment-response",
} as Record<Style, string>;
/** Whether the style's payment is base64 of JSON (else the PaymentPayload object). */
const BASE64: Record<Style, boolean> = {
  "agora-kit": false,
  "x402-mcp": false,
  "cloudflare-agents": true,
  "vercel-x402-mcp": true,
  mcpay: true,
  "jsonrpc-402": false,
};
const VERSION: Record<Style, 1 | 2> = {
  "agora-kit": 2,
  "x402-mcp": 2,
  "cloudflare-agents": 2,
  "vercel-x402-mcp": 1,
  mcpay: 1,
  "jsonrpc-402": 2,
};

const authorizationTypes = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

export type StyleServerOptions = {
  payTo: `0x${string}`;
  units: bigint;
  behaviour?: Behaviour;
  facilitatorUrl?: string;
};

export async function startStyleServer(
  style: Style,
  { payTo, units, behaviour = "normal", facilitatorUrl }: StyleServerOptions,
): Promise<StyleServer> {
  const paidTool = `${style.replace(/[^a-z0-9]/g, "_")}_forecast`;
  const freeTool = "ping";
  const counts = { unpaidCalls: 0, payments: 0, paidRuns: 0, freeCalls: 0 };
  const signedValues: StyleServer["signedValues"] = [];
  const settled: Settled[] = [];
  let failNext = false;
  let asked = 0;
  const version = VERSION[style];

  /** What the server asks now: the price, unless it rose after the first ask. */
  const priceNow = () => (behaviour === "raise-price" && asked > 0 ? units * 5n : units);
  const requirementsAt = (price: bigint) =>
    buildRequirements({
      network: BASE_SEPOLIA,
      units: price,
      payTo,
      resource: { url: `mcp://${style}/${paidTool}`, description: "A forecast" },
    });

  function paymentRequired(error: string, price: bigint): PaymentRequired {
    const req = requirementsAt(price);
    if (behaviour === "unpayable") {
      // Another scheme, another network, another token, another transfer method: nothing this wallet pays.
      const offer = version === 1 ? req.v1 : req.v2;
      const mainnet = version === 1 ? "base" : "eip155:8453";
      return {
        x402Version: version,
        error,
        ...(version === 2 ? { resource: { url: `mcp://${style}/${paidTool}` } } : {}),
        accepts: [
          { ...offer, scheme: "upto" as "exact" },
          {
            ...offer,
            network: mainnet as "eip155:8453",
            asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            extra: { name: "USD Coin", version: "2" },
          },
          { ...offer, asset: "0x1111111111111111111111111111111111111111" },
          { ...offer, extra: { ...offer.extra, assetTransferMethod: "permit2" } },
        ],
      };
    }
    return version === 1
      ? { x402Version: 1, error, accepts: [req.v1] }
      : {
          x402Version: 2,
          error,
          resource: { url: `mcp://${style}/${paidTool}`, description: "A forecast" },
          accepts: [req.v2],
        };
  }

  /** The style's request for payment: a tool result, or (JSON-RPC 402) the error to throw. */
  function ask(error: string, price: bigint): CallToolResult {
    const required = paymentRequired(error, price);
    if (style === "jsonrpc-402") throw new McpError(402, error, required);
    if (style === "cloudflare-agents" || style === "mcpay")
      return {
        isError: true,
        content: [{ type: "text", text: `Payment required: ${error}` }],
        _meta: { "x402/error": required },
      };
    return {
      isError: true,
      structuredContent: required as unknown as Record<string, unknown>,
      content: [{ type: "text", text: JSON.stringify(required) }],
    };
  }

  async function facilitator(path: "verify" | "settle", payment: PaymentPayload, price: bigint) {
    const requirements = payment.x402Version === 1 ? requirementsAt(price).v1 : requirementsAt(price).v2;
    const res = await fetch(`${facilitatorUrl}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        x402Version: payment.x402Version,
        paymentPayload: payment,
        paymentRequirements: requirements,
      }),
    });
    return (await res.json()) as {
      isValid?: boolean;
      invalidReason?: string;
      success?: boolean;
      transaction?: string;
      errorReason?: string;
    };
  }

  /** Whether the payment pays `price` to the payee, in this style's version, signed by its `from`. */
  async function verify(payment: PaymentPayload, price: bigint): Promise<string | undefined> {
    if (payment.x402Version !== version) return `expected an x402 version ${version} payment`;
    if (isUptoPayload(payment.payload)) return "expected an exact payment";
    const auth = payment.payload.authorization;
    signedValues.push({ value: auth.value, to: auth.to });
    if (
      payment.x402Version === 2 &&
      (payment.accepted.amount !== price.toString() || getAddress(payment.accepted.payTo) !== getAddress(payTo))
    )
      return "the accepted requirements are not this tool's";
    if (facilitatorUrl) {
      const verdict = await facilitator("verify", payment, price);
      return verdict.isValid ? undefined : `invalid payment: ${verdict.invalidReason ?? "refused"}`;
    }
    if (BigInt(auth.value) !== price || getAddress(auth.to) !== getAddress(payTo))
      return "invalid payment: the authorisation is not for this price and payee";
    if (settled.some((s) => s.nonce === auth.nonce)) return "invalid payment: the authorisation was used";
    const valid = await verifyTypedData({
      address: auth.from as `0x${string}`,
      domain: {
        name: BASE_SEPOLIA.eip712.name,
        version: BASE_SEPOLIA.eip712.version,
        chainId: BASE_SEPOLIA.chainId,
        verifyingContract: BASE_SEPOLIA.asset,
      },
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: {
        from: auth.from as `0x${string}`,
        to: auth.to as `0x${string}`,
        value: BigInt(auth.value),
        validAfter: BigInt(auth.validAfter),
        validBefore: BigInt(auth.validBefore),
        nonce: auth.nonce as `0x${string}`,
      },
      signature: payment.payload.signature as `0x${string}`,
    }).catch(() => false);
    return valid ? undefined : "invalid payment: bad signature";
  }

  async function settle(
    payment: PaymentPayload,
    price: bigint,
  ): Promise<{ success: boolean; transaction: string; network: string; payer: string; errorReason?: string }> {
    if (isUptoPayload(payment.payload)) throw new Error("expected an exact payment");
    const auth = payment.payload.authorization;
    const network = version === 1 ? BASE_SEPOLIA.v1Network : BASE_SEPOLIA.caip2;
    if (facilitatorUrl) {
      const done = await facilitator("settle", payment, price);
      if (done.success && done.transaction)
        settled.push({
          nonce: auth.nonce,
          transaction: done.transaction,
          from: auth.from,
          to: auth.to,
          units: BigInt(auth.value),
        });
      return {
        success: !!done.success,
        transaction: done.transaction ?? "",
        network,
        payer: auth.from,
        ...(done.errorReason ? { errorReason: done.errorReason } : {}),
      };
    }
    const transaction = `0x${randomBytes(32).toString("hex")}`;
    settled.push({ nonce: auth.nonce, transaction, from: auth.from, to: auth.to, units: BigInt(auth.value) });
    return { success: true, transaction, network, payer: auth.from };
  }

  /** The payment in the style's key and encoding; anything else counts as no payment. */
  function readPayment(meta: Record<string, unknown> | undefined): PaymentPayload | undefined {
    const value = meta?.[PAYMENT_KEY[style]];
    if (value === undefined || (BASE64[style] ? typeof value !== "string" : typeof value !== "object"))
      return undefined;
    const decoded = decodePayment(value);
    return decoded.ok ? decoded.payment : undefined;
  }

  async function callPaid(
    args: Record<string, unknown>,
    meta: Record<string, unknown> | undefined,
  ): Promise<CallToolResult> {
    const run = (): CallToolResult => {
      counts.paidRuns += 1;
      return { content: [{ type: "text", text: `Forecast for ${String(args.city ?? "nowhere")}: sunny` }] };
    };
    if (behaviour === "no-ask") return run();
    const payment = readPayment(meta);
    if (!payment) {
      counts.unpaidCalls += 1;
      const price = priceNow();
      asked += 1;
      return ask("payment required", price);
    }
    counts.payments += 1;
    if (behaviour === "ask-again") return ask("payment refused: try again", priceNow());
    const price = priceNow();
    const problem = await verify(payment, price);
    if (problem) return ask(problem, price);
    if (failNext) {
      failNext = false;
      return { isError: true, content: [{ type: "text", text: "The forecast service failed; nothing was charged" }] };
    }
    const result = run();
    const settlement = await settle(payment, price);
    if (!settlement.success) return ask(`settlement failed: ${settlement.errorReason ?? "unknown"}`, price);
    const response =
      style === "vercel-x402-mcp" ? Buffer.from(JSON.stringify(settlement)).toString("base64") : settlement;
    return { ...result, _meta: { [RESPONSE_KEY[style]]: response } };
  }

  function paidListing() {
    const base = {
      name: paidTool,
      description: "A weather forecast",
      inputSchema: { type: "object" as const, properties: { city: { type: "string", default: "Lisbon" } } },
    };
    switch (style) {
      case "agora-kit":
        return { ...base, _meta: { "x402/price": { amount: units.toString(), network: BASE_SEPOLIA.caip2 } } };
      case "cloudflare-agents":
        return { ...base, _meta: { "agents-x402/paymentRequired": true, "agents-x402/priceUSD": Number(units) / 1e6 } };
      case "vercel-x402-mcp":
        return { ...base, annotations: { paymentHint: true } };
      case "mcpay":
        return { ...base, annotations: { paymentHint: true, paymentPriceUSD: Number(units) / 1e6, paymentVersion: 1 } };
      default:
        return base;
    }
  }

  const build = () => {
    const server = new Server({ name: `style-${style}`, version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        paidListing(),
        { name: freeTool, description: "Free: answers pong", inputSchema: { type: "object" as const, properties: {} } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args = {}, _meta } = request.params;
      if (name === freeTool) {
        counts.freeCalls += 1;
        return { content: [{ type: "text", text: "pong" }] };
      }
      if (name !== paidTool) throw new McpError(-32602, `Unknown tool ${name}`);
      return callPaid(args, _meta as Record<string, unknown> | undefined);
    });
    return server;
  };

  const httpServer = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const server = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, text ? JSON.parse(text) : undefined);
  });
  await new Promise<void>((r) => httpServer.listen(0, "127.0.0.1", () => r()));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    style,
    paidTool,
    freeTool,
    counts,
    signedValues,
    settled,
    failNext: () => void (failNext = true),
    close: () => new Promise<void>((r) => (httpServer.closeAllConnections(), httpServer.close(() => r()))),
  };
}
