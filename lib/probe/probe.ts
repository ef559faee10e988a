// Probes a listing's MCP server as an MCP client: handshake, tool list, then the MonetizedMCP
// price-listing and payment-methods tools. Every HTTP request goes through safeFetch, and the whole
// probe ends within its timeout whatever the server does (./run.ts).
//
// Either protocol era: over Streamable HTTP the client (SDK v2) first asks server/discover; a 2026-07-28 server
// is then spoken to statelessly, and anything else falls back to the 2025 initialize handshake. The revision it
// settled on is recorded (protocolVersion), so every surface can say which one a server speaks.
import type { Lookup } from "@/lib/ssrf";
import {
  acceptsSupportedMethod,
  findTool,
  isVerifiable,
  lowestDollarPrice,
  MAKE_PURCHASE_TOOL,
  PAYMENT_METHODS_TOOLS,
  PRICE_LISTING_TOOLS,
  Quirks,
  readPaymentMethods,
  readPricedItems,
  takesSignedTransaction,
} from "@agora-mcp/protocol";
import { listTools, runSession } from "./run";
import { callTool, type RequestOptions, type Session } from "./session";
import { checkServerCard, type Observed } from "./server-card";
import { boundForStorage, boundQuirks, storablePrice } from "./storage-limits";
import type { ProbeResult } from "./types";
import { paidCandidates, readX402Offers, type NamedPaidTool, type X402Offers } from "./x402-tools";

export const PROBE_TIMEOUT_MS = 15_000;

export type ProbeOptions = {
  /** Whole-probe deadline; the result comes back by then even if the server never answers. */
  timeoutMs?: number;
  allowPrivateHosts?: boolean;
  lookup?: Lookup;
  /**
   * Tools named as paid from outside their tools/list entry (the owner at submission, an x402 discovery entry, the
   * registry's _meta): called unpaid to read their price. No other tool without a paid signal is ever called.
   */
  paidTools?: NamedPaidTool[];
};

/** Probes the MCP server at `url`. Never throws: failures come back as `error` in the result. */
export async function probeServer(url: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const result = emptyResult(url, new Date());
  const quirks = new Quirks();
  const failure = await runSession(
    url,
    { ...options, timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS },
    quirks,
    async (session, run) => {
      recordHandshake(result, session, run.started);
      await readOffer(result, session, run.request, quirks, options.paidTools ?? []);
      // Last, so a refusal met on the way to the card never stands in for a failure of the reading above.
      await checkServerCard(run.fetch, observedIdentity(url, result, session), quirks);
    },
  );
  if (failure) {
    result.error = failure.message;
    result.errorClass = failure.errorClass;
    result.httpStatus = failure.httpStatus;
    result.verifiable = false;
  }
  const bounded = boundForStorage(result, quirks);
  bounded.quirks = boundQuirks(quirks);
  return bounded;
}

function emptyResult(url: string, checkedAt: Date): ProbeResult {
  return {
    url,
    checkedAt,
    reachable: false,
    transport: null,
    protocolVersion: null,
    serverName: null,
    serverVersion: null,
    tools: [],
    pricedItems: [],
    paymentMethods: [],
    pricesRead: false,
    latencyMs: null,
    error: null,
    errorClass: null,
    httpStatus: null,
    quirks: [],
    lowestPrice: null,
    verifiable: false,
  };
}

/** What the handshake told: the server answers, how fast, over which transport and revision, and who it says it is. */
function recordHandshake(result: ProbeResult, session: Session, started: number): void {
  result.reachable = true;
  result.latencyMs = Math.round(performance.now() - started);
  result.transport = session.kind;
  result.protocolVersion = session.protocolVersion;
  const server = session.client.getServerVersion();
  result.serverName = server?.name?.slice(0, 200) ?? null;
  result.serverVersion = server?.version?.slice(0, 200) ?? null;
}

/** Who the server said it is and how it spoke, as its own server card is compared with. */
function observedIdentity(url: string, result: ProbeResult, session: Session): Observed {
  const { serverName, serverVersion, transport, protocolVersion } = result;
  return {
    url,
    serverName,
    serverVersion,
    transport,
    protocolVersion,
    capabilities: session.client.getServerCapabilities() as Record<string, unknown> | undefined,
  };
}

/** Reads what the server sells and how it is paid: its tools, the MonetizedMCP tools' answers, then its x402-paid tools. */
async function readOffer(
  result: ProbeResult,
  session: Session,
  request: RequestOptions,
  quirks: Quirks,
  named: NamedPaidTool[],
): Promise<void> {
  const listed = await listTools(session, request);
  const tools = listed.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  result.tools = tools;
  const names = tools.map((t) => t.name);
  const priceTool = await readPriceListing(result, session, names, request, quirks);
  await readMethods(result, session, names, request, quirks);
  const purchase = tools.find((t) => t.name === MAKE_PURCHASE_TOOL);
  const sdkCompatible = purchase !== undefined && takesSignedTransaction(purchase);
  if (purchase && !sdkCompatible)
    quirks.add("make-purchase takes no `signedTransaction`: MonetizedMCP clients cannot pay it");
  // MonetizedMCP's own tools are read above, never as per-call paid tools.
  const monetized = new Set<string>([...PRICE_LISTING_TOOLS, ...PAYMENT_METHODS_TOOLS, MAKE_PURCHASE_TOOL]);
  const candidates = paidCandidates(
    listed.filter((t) => !monetized.has(t.name)),
    named,
    quirks,
  );
  const x402 = await readX402Offers(session, candidates, tools, request, quirks);
  addX402Offers(result, x402, Boolean(priceTool), quirks);
  // Payable: a MonetizedMCP server whose make-purchase takes a signed payment, or x402-paid tools, on a supported network.
  result.verifiable =
    (isVerifiable(result.reachable, names, result.paymentMethods) && sdkCompatible) ||
    (result.reachable && x402.items.length > 0 && acceptsSupportedMethod(x402.methods));
}

/** Calls the MonetizedMCP price-listing tool (any of its spellings): the priced items and the lowest USD price. */
async function readPriceListing(
  result: ProbeResult,
  session: Session,
  names: string[],
  request: RequestOptions,
  quirks: Quirks,
): Promise<string | undefined> {
  const priceTool = findTool(names, PRICE_LISTING_TOOLS);
  if (priceTool && priceTool !== PRICE_LISTING_TOOLS[0]) quirks.add(`price listing tool spelled \`${priceTool}\``);
  if (!priceTool) return undefined;
  const items = readPricedItems(await callTool(session, priceTool, request, quirks), quirks);
  if (items) {
    const lowest = lowestDollarPrice(items);
    result.pricedItems = items;
    if (lowest === undefined) quirks.add("no item priced in USD or USDC");
    else if (storablePrice(lowest, quirks)) {
      result.lowestPrice = lowest;
      result.pricesRead = true;
    }
  }
  return priceTool;
}

/** Calls the MonetizedMCP payment-methods tool (any of its spellings): the payments the server accepts. */
async function readMethods(
  result: ProbeResult,
  session: Session,
  names: string[],
  request: RequestOptions,
  quirks: Quirks,
): Promise<void> {
  const methodsTool = findTool(names, PAYMENT_METHODS_TOOLS);
  if (methodsTool && methodsTool !== PAYMENT_METHODS_TOOLS[0])
    quirks.add(`payment methods tool spelled \`${methodsTool}\``);
  if (methodsTool) {
    result.paymentMethods = readPaymentMethods(await callTool(session, methodsTool, request, quirks), quirks) ?? [];
  }
}

/**
 * Adds the x402-paid tools' items and payees to what the MonetizedMCP tools said (a payee once). Their lowest price
 * is the listing's only when there is no price-listing tool: that tool's answer is the server's own word.
 */
function addX402Offers(result: ProbeResult, x402: X402Offers, hasPriceTool: boolean, quirks: Quirks): void {
  result.pricedItems = [...result.pricedItems, ...x402.items];
  for (const method of x402.methods) {
    if (
      !result.paymentMethods.some(
        (m) =>
          m.paymentMethod === method.paymentMethod &&
          m.walletAddress.toLowerCase() === method.walletAddress.toLowerCase(),
      )
    ) {
      result.paymentMethods.push(method);
    }
  }
  if (x402.items.length && !hasPriceTool) {
    const lowest = lowestDollarPrice(x402.items) ?? null;
    if (storablePrice(lowest, quirks)) {
      result.pricesRead = true;
      result.lowestPrice = lowest;
    }
  }
}
