// The probe's reading of x402-paid tools (those whose listing carries `_meta["x402/…"]`): each is called unpaid
// and answers PaymentRequired, so nothing is paid and nothing runs.
import {
  EVM_ADDRESS,
  exampleArguments,
  findNetwork,
  readAccepts,
  readPaymentRequired,
  unitsToNumber,
  type AcceptedPayment,
  type PaymentRequirementsV2,
  type PricedItem,
  type ProbedTool,
  type Quirks,
} from "@agora-mcp/protocol";
import { toolCallProblem } from "./probe-errors";
import type { RequestOptions, Session } from "./session";

/**
 * x402-paid tools called unpaid per probe (each answers PaymentRequired; nothing is paid or run). A kit server has
 * one per paid item, and only a tool whose PaymentRequired was read can be listed in discovery.
 */
const MAX_X402_TOOLS = 20;

export type X402Offers = { items: PricedItem[]; methods: AcceptedPayment[] };

/** Whether a listed tool says it is x402-paid. */
export function isX402Tool(tool: { _meta?: Record<string, unknown> }): boolean {
  return Object.keys(tool._meta ?? {}).some((k) => k.startsWith("x402/"));
}

/** Reads the first MAX_X402_TOOLS x402-paid tools (a quirk says when there were more). */
export async function readX402Offers(session: Session, tools: ProbedTool[], request: RequestOptions, quirks: Quirks): Promise<X402Offers> {
  if (tools.length > MAX_X402_TOOLS) quirks.add(`only the first ${MAX_X402_TOOLS} of ${tools.length} x402-paid tools were read`);
  return readX402Tools(session, tools.slice(0, MAX_X402_TOOLS), request, quirks);
}

/**
 * Reads the price of x402-paid tools: an unpaid call answers PaymentRequired with the payment requirements. The
 * call carries arguments made from the tool's input schema (a schema with required parameters refuses an empty
 * call before payment).
 */
async function readX402Tools(session: Session, tools: ProbedTool[], request: RequestOptions, quirks: Quirks): Promise<X402Offers> {
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
    const offer = firstReadableOffer(name, required, quirks);
    if (offer) {
      items.push(offer.item);
      methods.push(offer.method);
    }
  }
  return { items, methods };
}

/** The first of a PaymentRequired's offers that Agora can read, as a priced item and the payment it accepts. */
function firstReadableOffer(
  name: string,
  required: NonNullable<ReturnType<typeof readPaymentRequired>>,
  quirks: Quirks,
): { item: PricedItem; method: AcceptedPayment } | undefined {
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
    return { item, method: { paymentMethod: network.paymentMethod, walletAddress: req.payTo } };
  }
  return undefined;
}

/** The version 2 requirements of a PaymentRequired, as stored: only the fields x402 defines, bounded. */
function storableRequirements(req: PaymentRequirementsV2): PaymentRequirementsV2 | undefined {
  const name = req.extra.name;
  const version = req.extra.version;
  if (!EVM_ADDRESS.test(req.payTo) || !Number.isInteger(req.maxTimeoutSeconds) || req.maxTimeoutSeconds <= 0 || req.maxTimeoutSeconds > 86_400) return undefined;
  if (typeof name !== "string" || typeof version !== "string" || name.length > 64 || version.length > 16) return undefined;
  return { scheme: "exact", network: req.network, asset: req.asset, amount: req.amount, payTo: req.payTo, maxTimeoutSeconds: req.maxTimeoutSeconds, extra: { name, version } };
}
