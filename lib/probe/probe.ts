// Probes a listing's MCP server as an MCP client: handshake, tool list, then the MonetizedMCP
// price-listing and payment-methods tools. Every HTTP request goes through safeFetch, and the whole
// probe ends within its timeout whatever the server does.
//
// Either protocol era: over Streamable HTTP the client (SDK v2) first asks server/discover; a 2026-07-28 server
// is then spoken to statelessly, and anything else falls back to the 2025 initialize handshake. The revision it
// settled on is recorded (protocolVersion), so every surface can say which one a server speaks.
import { Client, SSEClientTransport, StreamableHTTPClientTransport, type JsonSchemaValidator, type jsonSchemaValidator, type Transport } from "@modelcontextprotocol/client";
import { createSafeFetch, SafeFetchError, type FetchLike, type Lookup } from "@/lib/ssrf";
import {
  acceptsSupportedMethod,
  EVM_ADDRESS,
  exampleArguments,
  findNetwork,
  findTool,
  isVerifiable,
  lowestDollarPrice,
  MAKE_PURCHASE_TOOL,
  PAYMENT_METHODS_TOOLS,
  PRICE_LISTING_TOOLS,
  Quirks,
  readAccepts,
  readPaymentMethods,
  readPaymentRequired,
  readPricedItems,
  readToolPayload,
  takesSignedTransaction,
  unitsToNumber,
  type AcceptedPayment,
  type PricedItem,
  type PaymentRequirementsV2,
  type ProbedTool,
} from "@agora-mcp/protocol";
import { classifyProbeError, refusalFailure, timeoutFailure, toolCallProblem } from "./probe-errors";
import { boundForStorage, boundQuirks, storablePrice } from "./storage-limits";
import type { ProbeResult } from "./types";

export const PROBE_TIMEOUT_MS = 15_000;
const CLIENT_INFO = { name: "agora-probe", version: "1.0.0" };

// The SDK compiles every tool's outputSchema with Ajv to check call results. A probed server's schemas
// are untrusted input (a hostile `pattern` can hang the regex engine) and the probe reads the answers
// itself, so nothing is compiled: every answer passes through to the tolerant readers.
const acceptAnything: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};
const MAX_TOOL_PAGES = 5;
/**
 * x402-paid tools called unpaid per probe (each answers PaymentRequired; nothing is paid or run). A kit server has
 * one per paid item, and only a tool whose PaymentRequired was read can be listed in discovery.
 */
const MAX_X402_TOOLS = 20;

export type ProbeOptions = {
  /** Whole-probe deadline; the result comes back by then even if the server never answers. */
  timeoutMs?: number;
  allowPrivateHosts?: boolean;
  lookup?: Lookup;
};

class ProbeTimeout extends Error {
  constructor(ms: number) {
    super(`No complete answer within ${ms} ms`);
  }
}

/** Both transports failed: the Streamable HTTP failure explains it unless it was only "not MCP". */
class NotMcpServer extends Error {
  constructor(readonly streamable: unknown, readonly sse: unknown) {
    super("Not an MCP server");
  }
}

type Session = { client: Client; transport: Transport; kind: "streamable-http" | "sse"; protocolVersion: string | null };

async function connect(
  kind: Session["kind"],
  url: URL,
  fetch: FetchLike,
  request: () => { signal: AbortSignal; timeout: number },
): Promise<Session> {
  // The SDK's same-origin redirect policy would refuse what safeFetch already re-checks; let safeFetch decide.
  const transport =
    kind === "streamable-http"
      ? new StreamableHTTPClientTransport(url, { fetch, redirectPolicy: "follow" })
      : new SSEClientTransport(url, { fetch, redirectPolicy: "follow" });
  // The deprecated HTTP+SSE transport predates 2026-07-28: no server/discover is asked there.
  const client = new Client(CLIENT_INFO, { jsonSchemaValidator: acceptAnything, versionNegotiation: { mode: kind === "streamable-http" ? "auto" : "legacy" } });
  const session: Session = { client, transport, kind, protocolVersion: null };
  // Background stream errors (a refused GET stream, a reconnect) are not the probe's result.
  session.client.onerror = () => {};
  try {
    await session.client.connect(transport, request());
  } catch (error) {
    await closeQuietly(session);
    throw error;
  }
  session.protocolVersion = client.getNegotiatedProtocolVersion()?.slice(0, 40) ?? null;
  return session;
}

async function closeQuietly(session: Session): Promise<void> {
  await Promise.race([session.client.close().catch(() => {}), new Promise((r) => setTimeout(r, 1_000).unref())]);
}

/** Probes the MCP server at `url`. Never throws: failures come back as `error` in the result. */
export async function probeServer(url: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const checkedAt = new Date();
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new ProbeTimeout(timeoutMs)), timeoutMs);
  const quirks = new Quirks();
  const refusals: SafeFetchError[] = [];
  const safe = createSafeFetch({
    allowPrivateHosts: options.allowPrivateHosts,
    lookup: options.lookup,
    timeoutMs: Math.min(10_000, timeoutMs),
    onRefusal: (e) => refusals.push(e),
    reuseConnections: true,
  });
  const fetch: FetchLike = (input, init) =>
    safe(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal });
  const remaining = () => Math.max(1, timeoutMs - (performance.now() - started));
  const request = () => ({ signal: deadline.signal, timeout: remaining() });

  const result: ProbeResult = {
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

  let session: Session | undefined;
  const run = async () => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new SafeFetchError("invalid_url", `Not a valid URL: ${url.slice(0, 200)}`);
    }
    try {
      session = await connect("streamable-http", target, fetch, request);
    } catch (streamableError) {
      // A refusal or the deadline would only repeat over SSE; anything else may be a legacy SSE server.
      if (refusals.length || deadline.signal.aborted) throw streamableError;
      try {
        session = await connect("sse", target, fetch, request);
        quirks.add("served over the deprecated HTTP+SSE transport, not Streamable HTTP");
      } catch (sseError) {
        if (refusals.length || deadline.signal.aborted) throw sseError;
        throw new NotMcpServer(streamableError, sseError);
      }
    }
    // A handshake that finished after the deadline (the result is already out) must not stay open.
    if (deadline.signal.aborted) {
      await closeQuietly(session);
      throw deadline.signal.reason;
    }
    result.reachable = true;
    result.latencyMs = Math.round(performance.now() - started);
    result.transport = session.kind;
    result.protocolVersion = session.protocolVersion;
    const server = session.client.getServerVersion();
    result.serverName = server?.name?.slice(0, 200) ?? null;
    result.serverVersion = server?.version?.slice(0, 200) ?? null;

    const tools: ProbedTool[] = [];
    const x402Tools: ProbedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const listed = await session.client.listTools(cursor ? { cursor } : undefined, { ...request(), cacheMode: "bypass" });
      tools.push(...listed.tools.map((t) => ({ name: t.name, description: t.description ?? null, inputSchema: t.inputSchema })));
      x402Tools.push(
        ...listed.tools
          .filter((t) => Object.keys(t._meta ?? {}).some((k) => k.startsWith("x402/")))
          .map((t) => ({ name: t.name, description: t.description ?? null, inputSchema: t.inputSchema })),
      );
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    result.tools = tools;
    const names = tools.map((t) => t.name);

    const priceTool = findTool(names, PRICE_LISTING_TOOLS);
    if (priceTool && priceTool !== PRICE_LISTING_TOOLS[0]) quirks.add(`price listing tool spelled \`${priceTool}\``);
    if (priceTool) {
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
    }
    const methodsTool = findTool(names, PAYMENT_METHODS_TOOLS);
    if (methodsTool && methodsTool !== PAYMENT_METHODS_TOOLS[0]) quirks.add(`payment methods tool spelled \`${methodsTool}\``);
    if (methodsTool) {
      result.paymentMethods = readPaymentMethods(await callTool(session, methodsTool, request, quirks), quirks) ?? [];
    }
    const purchase = tools.find((t) => t.name === MAKE_PURCHASE_TOOL);
    const sdkCompatible = purchase !== undefined && takesSignedTransaction(purchase);
    if (purchase && !sdkCompatible) quirks.add("make-purchase takes no `signedTransaction`: MonetizedMCP clients cannot pay it");
    if (x402Tools.length > MAX_X402_TOOLS) quirks.add(`only the first ${MAX_X402_TOOLS} of ${x402Tools.length} x402-paid tools were read`);
    const x402 = await readX402Tools(session, x402Tools.slice(0, MAX_X402_TOOLS), request, quirks);
    result.pricedItems = [...result.pricedItems, ...x402.items];
    for (const method of x402.methods) {
      if (!result.paymentMethods.some((m) => m.paymentMethod === method.paymentMethod && m.walletAddress.toLowerCase() === method.walletAddress.toLowerCase())) {
        result.paymentMethods.push(method);
      }
    }
    if (x402.items.length && !priceTool) {
      const lowest = lowestDollarPrice(x402.items) ?? null;
      if (storablePrice(lowest, quirks)) {
        result.pricesRead = true;
        result.lowestPrice = lowest;
      }
    }
    // Payable: a MonetizedMCP server whose make-purchase takes a signed payment, or x402-paid tools, on a supported network.
    result.verifiable =
      (isVerifiable(result.reachable, names, result.paymentMethods) && sdkCompatible) ||
      (result.reachable && x402.items.length > 0 && acceptsSupportedMethod(x402.methods));
  };

  try {
    await Promise.race([
      run(),
      new Promise<never>((_, reject) => deadline.signal.addEventListener("abort", () => reject(deadline.signal.reason), { once: true })),
    ]);
  } catch (error) {
    // A refusal explains a failure better than the SDK's wrapping of it; the deadline explains a hang.
    // Only a class, a status and a fixed sentence are kept: never the server's own error text.
    const failure = refusals[0]
      ? refusalFailure(refusals[0])
      : deadline.signal.aborted
        ? timeoutFailure(timeoutMs)
        : error instanceof NotMcpServer
          ? classifyProbeError(error.streamable, "not_mcp")
          : classifyProbeError(error);
    result.error = failure.message;
    result.errorClass = failure.errorClass;
    result.httpStatus = failure.httpStatus;
    result.verifiable = false;
  } finally {
    clearTimeout(timer);
    if (session) await closeQuietly(session);
    await safe.close();
  }
  const bounded = boundForStorage(result, quirks);
  bounded.quirks = boundQuirks(quirks);
  return bounded;
}

/** Calls a tool with no arguments; a failed call becomes a quirk and an undefined payload. */
async function callTool(
  session: Session,
  name: string,
  request: () => { signal: AbortSignal; timeout: number },
  quirks: Quirks,
): Promise<unknown> {
  try {
    const answer = await session.client.callTool({ name, arguments: {} }, request());
    return readToolPayload(name, answer, quirks);
  } catch (error) {
    if (request().signal.aborted) throw error;
    quirks.add(`${name.slice(0, 60)}: call failed (${toolCallProblem(error)})`);
    return undefined;
  }
}

/** The version 2 requirements of a PaymentRequired, as stored: only the fields x402 defines, bounded. */
function storableRequirements(req: PaymentRequirementsV2): PaymentRequirementsV2 | undefined {
  const name = req.extra.name;
  const version = req.extra.version;
  if (!EVM_ADDRESS.test(req.payTo) || !Number.isInteger(req.maxTimeoutSeconds) || req.maxTimeoutSeconds <= 0 || req.maxTimeoutSeconds > 86_400) return undefined;
  if (typeof name !== "string" || typeof version !== "string" || name.length > 64 || version.length > 16) return undefined;
  return { scheme: "exact", network: req.network, asset: req.asset, amount: req.amount, payTo: req.payTo, maxTimeoutSeconds: req.maxTimeoutSeconds, extra: { name, version } };
}

/**
 * Reads the price of x402-paid tools (those whose listing carries `_meta["x402/…"]`): an unpaid call answers
 * PaymentRequired with the payment requirements, so nothing is paid and nothing runs. The call carries arguments
 * made from the tool's input schema (a schema with required parameters refuses an empty call before payment).
 */
async function readX402Tools(
  session: Session,
  tools: ProbedTool[],
  request: () => { signal: AbortSignal; timeout: number },
  quirks: Quirks,
): Promise<{ items: PricedItem[]; methods: AcceptedPayment[] }> {
  const items: PricedItem[] = [];
  const methods: AcceptedPayment[] = [];
  for (const { name, inputSchema } of tools) {
    let answer: unknown;
    try {
      answer = await session.client.callTool({ name, arguments: exampleArguments(inputSchema) ?? {} }, request());
    } catch (error) {
      if (request().signal.aborted) throw error;
      quirks.add(`${name.slice(0, 60)}: unpaid call failed (${toolCallProblem(error)})`);
      continue;
    }
    const required = readPaymentRequired(answer);
    if (!required) {
      quirks.add(`${name}: marked as x402-paid but an unpaid call did not answer PaymentRequired`);
      continue;
    }
    for (const accept of readAccepts(required)) {
      const req = accept.requirements;
      const network = findNetwork(req.network);
      const units = accept.version === 2 ? accept.requirements.amount : accept.requirements.maxAmountRequired;
      if (!network || network.asset.toLowerCase() !== req.asset.toLowerCase()) {
        quirks.add(`${name}: asks for a payment Agora cannot read (network ${String(req.network).slice(0, 40)})`);
        continue;
      }
      const item: PricedItem = { name, toolName: name, amount: unitsToNumber(BigInt(units)), units, currency: "USDC", paymentMethod: network.paymentMethod };
      // Only a version 2 offer in CAIP-2 terms is what discovery's entries promise a generic client.
      const v2 = required.x402Version === 2 && accept.version === 2 && req.network === network.caip2 ? storableRequirements(accept.requirements) : undefined;
      if (v2) item.x402Requirements = v2;
      else quirks.add(`${name}: answers x402 version ${required.x402Version} requirements only; x402 discovery does not list it`);
      items.push(item);
      methods.push({ paymentMethod: network.paymentMethod, walletAddress: req.payTo });
      break;
    }
  }
  return { items, methods };
}
