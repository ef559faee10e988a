// What the probe found for each paid tool, in words, for the listing's owner (the account page) and its reviewer:
// how the tool is paid (its style), what its unpaid calls answered, and which of its offers Agora refused and why.
// Every string that came from the server is made plain text here (no control or direction-changing characters);
// the page renders it as text, never as markup.
import {
  findNetwork,
  PAID_STYLE_NAMES,
  unitsToNumber,
  type PaidReason,
  type ProbedTool,
  type ToolPayment,
} from "@agora-mcp/protocol";
import { formatPrice } from "@/lib/listings/format";

type ToolPaymentView = {
  tool: string;
  /** The style's name ("x402 MCP transport"), or null when the tool never answered in a style Agora reads. */
  style: string | null;
  /** Why Agora called it unpaid: who said it is paid. */
  reason: string;
  /** What the unpaid calls found, in one sentence. */
  status: string;
  /** Each offer Agora refused, with why ("Offer 2 refused: network … is not one Agora knows"). */
  refused: string[];
};

const REASONS: Record<PaidReason, string> = {
  owner: "named by the owner",
  "kit-meta": "marked paid by the server",
  "cloudflare-meta": "marked paid by the server",
  "payment-hint": "marked paid by the server",
  "x402-meta": "marked paid by the server",
  description: "its description says it is paid",
  discovery: "named by an x402 discovery entry",
  registry: "named by its registry entry",
};

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Server-given text as plain, one-line text of at most `max` characters. */
export function plainText(value: string, max = 200): string {
  const plain = value.replace(UNSAFE, " ").replace(/\s+/g, " ").trim();
  return plain.length > max ? `${plain.slice(0, max)}…` : plain;
}

/** "$0.01 on Base Sepolia" for each distinct offer, joined with "or". */
function offersText(offers: NonNullable<ToolPayment["offers"]>): string {
  const texts = offers.map((o) => {
    const price = /^\d{1,40}$/.test(o.units) ? formatPrice(unitsToNumber(o.units)) : "an unreadable amount";
    return `${price} on ${findNetwork(o.network)?.label ?? plainText(o.network, 60)}`;
  });
  return [...new Set(texts)].join(" or ");
}

const refusedReasons = (paid: ToolPayment) => (paid.refused ?? []).map((r) => plainText(r.reason));

/** The status of a paid tool in one sentence, as its owner reads it. */
export function paymentStatusText(paid: ToolPayment): string {
  switch (paid.status) {
    case "priced":
      return paid.offers?.length ? `Priced at ${offersText(paid.offers)}` : "Priced";
    case "no-ask":
      return "Answered without asking for payment — not listed as paid";
    case "unreadable": {
      const reasons = refusedReasons(paid);
      return reasons.length ? `No offer Agora can pay: ${reasons.join("; ")}` : "No offer Agora can pay";
    }
    case "unstable":
      return "Asked a different price on a second call";
    case "failed":
      return `The unpaid call failed: ${paid.note ? plainText(paid.note) : "no answer"}`;
  }
}

/** The paid tools of a check, each with what it found (tools not read as paid are left out). */
export function toolPaymentViews(tools: readonly ProbedTool[]): ToolPaymentView[] {
  return tools.flatMap((tool) => {
    const paid = tool.paid;
    if (!paid) return [];
    return [
      {
        tool: plainText(tool.name, 128),
        style: paid.style ? PAID_STYLE_NAMES[paid.style] : null,
        reason: REASONS[paid.reason] ?? "named as paid",
        status: paymentStatusText(paid),
        // An unreadable tool's refusals are its status already.
        refused:
          paid.status === "unreadable"
            ? []
            : (paid.refused ?? []).map((r) => `Offer ${r.index + 1} refused: ${plainText(r.reason)}`),
      },
    ];
  });
}
