// The probe's reading of tools paid per call over x402, in every style the field speaks
// (@agora-mcp/protocol paid-styles.ts). Safe by construction: a tool is called unpaid only when something says it
// is paid — its own listing (Agora's kit, Cloudflare's _meta, Vercel's paymentHint, an x402 _meta key, the
// documented description form) or a name given by the listing's owner, an x402 discovery entry or the registry.
// A paid tool answers the unpaid call with its price before it runs; a tool known free is never called.
import {
  exampleArguments,
  paidSignal,
  readOffers,
  readPaymentAsk,
  readPaymentAskError,
  unitsToNumber,
  findNetwork,
  type AcceptedPayment,
  type PaidReason,
  type PaidSignal,
  type PaymentAsk,
  type PricedItem,
  type ProbedTool,
  type Quirks,
  type ReadOffer,
  type ToolPayment,
} from "@agora-mcp/protocol";
import { toolCallProblem } from "./probe-errors";
import type { RequestOptions, Session } from "./session";

/** Paid tools called unpaid per probe (twice each: a price that changes between two asks is not listed). */
const MAX_X402_TOOLS = 20;

/** A tool named as paid from outside its tools/list entry, and who named it. */
export type NamedPaidTool = { name: string; reason: Extract<PaidReason, "owner" | "discovery" | "registry"> };

export type X402Offers = { items: PricedItem[]; methods: AcceptedPayment[] };

/** A listed tool as tools/list gave it, with the fields the paid signals live in. */
export type ListedTool = ProbedTool & { annotations?: unknown; _meta?: unknown };

type PaidCandidate = { tool: ProbedTool; signal: PaidSignal };

/**
 * The listed tools something says are paid, each with that reason: the tool's own signal first, then a name from
 * outside. Names that are not in tools/list are said in a quirk (and never called).
 */
export function paidCandidates(listed: ListedTool[], named: NamedPaidTool[], quirks: Quirks): PaidCandidate[] {
  const out: PaidCandidate[] = [];
  for (const tool of listed) {
    const signal = paidSignal(tool) ?? namedSignal(named, tool.name);
    if (signal)
      out.push({ tool: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema }, signal });
  }
  for (const n of named) {
    if (!listed.some((t) => t.name === n.name))
      quirks.add(`${n.name.slice(0, 60)}: named as paid (${n.reason}) but not in tools/list`);
  }
  return out;
}

function namedSignal(named: NamedPaidTool[], name: string): PaidSignal | undefined {
  const hit = named.find((n) => n.name === name);
  return hit ? { reason: hit.reason } : undefined;
}

/** Reads the first MAX_X402_TOOLS paid tools (a quirk says when there were more) and records on each tool what it said. */
export async function readX402Offers(
  session: Session,
  candidates: PaidCandidate[],
  tools: ProbedTool[],
  request: RequestOptions,
  quirks: Quirks,
): Promise<X402Offers> {
  if (candidates.length > MAX_X402_TOOLS)
    quirks.add(`only the first ${MAX_X402_TOOLS} of ${candidates.length} paid tools were read`);
  const items: PricedItem[] = [];
  const methods: AcceptedPayment[] = [];
  for (const candidate of candidates.slice(0, MAX_X402_TOOLS)) {
    const { payment, offer } = await readTool(session, candidate, request, quirks);
    const probed = tools.find((t) => t.name === candidate.tool.name);
    if (probed) probed.paid = payment;
    if (offer) {
      items.push(offer.item);
      methods.push(offer.method);
    }
  }
  return { items, methods };
}

type Reading = { payment: ToolPayment; offer?: { item: PricedItem; method: AcceptedPayment } };

/** One paid tool: two unpaid calls, what each asked, and the price it lists when both asked the same. */
async function readTool(
  session: Session,
  { tool, signal }: PaidCandidate,
  request: RequestOptions,
  quirks: Quirks,
): Promise<Reading> {
  const base = { reason: signal.reason, ...(signal.style ? { style: signal.style } : {}) };
  const first = await askOnce(session, tool, signal, request);
  if (first.kind === "failed") {
    quirks.add(`${tool.name.slice(0, 60)}: unpaid call failed (${first.problem})`);
    // The note is the problem alone (a class or status, never the server's text): the account page says the rest.
    return { payment: { ...base, status: "failed", note: first.problem } };
  }
  if (first.kind === "answered") {
    quirks.add(`${tool.name.slice(0, 60)}: named as paid but an unpaid call answered without asking for payment`);
    return { payment: { ...base, status: "no-ask", note: "an unpaid call answered without asking for payment" } };
  }
  const offers = readOffers(first.ask.required);
  const readable = offers.filter((o): o is ReadOffer => o.ok);
  const refused = offers.filter((o) => !o.ok).map((o) => ({ index: o.index, reason: o.reason }));
  const payment: ToolPayment = {
    ...base,
    style: first.ask.style,
    x402Version: first.ask.required.x402Version,
    status: "priced",
    offers: readable.map(summary),
    ...(refused.length ? { refused } : {}),
  };
  for (const r of refused) quirks.add(`${tool.name.slice(0, 60)}: offer ${r.index + 1} refused: ${r.reason}`);
  const chosen = readable[0];
  if (!chosen) return { payment: { ...payment, status: "unreadable", note: "no offer Agora can pay" } };

  // A second ask must name the same terms: a price that moves between two asks is not a price to list.
  const second = await askOnce(session, tool, signal, request);
  const again = second.kind === "ask" ? readOffers(second.ask.required).find((o): o is ReadOffer => o.ok) : undefined;
  if (
    !again ||
    again.units !== chosen.units ||
    again.requirements.payTo.toLowerCase() !== chosen.requirements.payTo.toLowerCase()
  ) {
    quirks.add(`${tool.name.slice(0, 60)}: a second unpaid call asked other terms than the first`);
    return {
      payment: { ...payment, status: "unstable", note: "a second unpaid call asked other terms than the first" },
    };
  }
  return { payment, offer: offerItem(tool.name, payment, chosen, first.ask) };
}

type Ask = { kind: "ask"; ask: PaymentAsk } | { kind: "answered" } | { kind: "failed"; problem: string };

async function askOnce(session: Session, tool: ProbedTool, signal: PaidSignal, request: RequestOptions): Promise<Ask> {
  try {
    const answer = await session.client.callTool(
      { name: tool.name, arguments: exampleArguments(tool.inputSchema) ?? {} },
      request(),
    );
    const ask = readPaymentAsk(answer, signal.style);
    return ask ? { kind: "ask", ask } : { kind: "answered" };
  } catch (error) {
    if (request().signal.aborted) throw error;
    // x402's JSON-RPC transport asks with an error, code 402.
    const ask = readPaymentAskError(error);
    return ask ? { kind: "ask", ask } : { kind: "failed", problem: toolCallProblem(error) };
  }
}

const summary = (o: ReadOffer) => ({
  scheme: o.version === 2 ? o.requirements.scheme : ("exact" as const),
  network: o.requirements.network,
  units: o.units.toString(),
  payTo: o.requirements.payTo,
});

/** The priced item a readable offer makes, with the server's own requirements, in their version, kept for discovery. */
function offerItem(
  name: string,
  payment: ToolPayment,
  offer: ReadOffer,
  ask: PaymentAsk,
): { item: PricedItem; method: AcceptedPayment } {
  const network = findNetwork(offer.requirements.network)!;
  const units = offer.units.toString();
  const item: PricedItem = {
    name,
    toolName: name,
    amount: unitsToNumber(offer.units),
    units,
    currency: "USDC",
    paymentMethod: network.paymentMethod,
    style: payment.style,
  };
  // upto: the amount is the most a call may cost.
  if (offer.version === 2 && offer.requirements.scheme === "upto") item.metered = true;
  // Discovery lists the server's own requirements as it asked them (readOffers bounded them), never rewritten.
  // An entry's version is its offer's: a version 1 offer inside a version 2 answer (or the reverse) is listed in neither.
  if (offer.version === 2 && ask.required.x402Version === 2) item.x402Requirements = offer.requirements;
  if (offer.version === 1 && ask.required.x402Version === 1) item.x402RequirementsV1 = offer.requirements;
  return { item, method: { paymentMethod: network.paymentMethod, walletAddress: offer.requirements.payTo } };
}
