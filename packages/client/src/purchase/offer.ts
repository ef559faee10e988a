// Which of a paid tool's offers this wallet pays: the first, in the server's own order, that readOffers reads
// (exact scheme, a known network's USDC, a payee, a bounded amount) on the wallet's network and asset, signed as an
// EIP-3009 authorisation (the receipt asks the chain about its nonce) in the token's EIP-712 domain. Every other
// offer is listed with the reason it cannot be paid. Nothing is rewritten: the chosen offer's terms are the
// server's own, and they are exactly what is checked, confirmed, reserved and signed.
import { findNetwork, readOffers, type PaymentAsk, type PaymentNetwork, type ReadOffer } from "@agora-mcp/protocol";

/** The offer to pay, and the server's own requirements object it was read from (a version 2 payment echoes it as `accepted`). */
export type ChosenOffer = { offer: ReadOffer; raw: Record<string, unknown> };

export type OfferChoice = ({ ok: true } & ChosenOffer) | { ok: false; refused: string[] };

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** Why this wallet cannot pay a readable offer; undefined when it can. */
function unpayable(offer: ReadOffer, network: PaymentNetwork): string | undefined {
  const on = findNetwork(offer.requirements.network);
  if (!on || on.caip2 !== network.caip2)
    return `it is paid on ${on?.label ?? offer.requirements.network}; this wallet pays on ${network.label}`;
  // A version 1 payment names its network in version 1's words ("base-sepolia"); the signer knows no other.
  if (offer.version === 1 && offer.requirements.network !== network.v1Network)
    return `a version 1 offer names its network "${offer.requirements.network}", not "${network.v1Network}"`;
  const extra = offer.requirements.extra ?? {};
  const method = extra.assetTransferMethod;
  if (method !== undefined && method !== "eip3009")
    return `it asks for a ${String(method).slice(0, 20)} transfer; this wallet signs EIP-3009 authorisations only`;
  if (typeof extra.name !== "string" || typeof extra.version !== "string")
    return "it names no EIP-712 domain for the token (extra.name and extra.version)";
  return undefined;
}

export function chooseOffer(ask: PaymentAsk, network: PaymentNetwork): OfferChoice {
  const refused: string[] = [];
  const accepts: Record<string, unknown>[] = ask.required.accepts;
  for (const [index, read] of readOffers(ask.required).entries()) {
    if (!read.ok) {
      refused.push(`offer ${read.index + 1}: ${read.reason}`);
      continue;
    }
    const why = unpayable(read, network);
    if (why) {
      refused.push(`offer ${index + 1}: ${why}`);
      continue;
    }
    // A copy: what is signed later is what was checked now, whatever happens to the answer it was read from.
    return { ok: true, offer: structuredClone(read), raw: structuredClone(record(accepts[index]) ?? {}) };
  }
  return { ok: false, refused };
}
