// Bounds what a probe stores: a probe row is history, written every run, and a hostile or sprawling
// server must not decide its size. (Reading the tools' answers is @agora-mcp/protocol's job.)
import {
  clip,
  type AcceptedPayment,
  type PricedItem,
  type ProbedTool,
  type Quirks,
  type ToolPayment,
} from "@agora-mcp/protocol";

/** How much of a probed server's answer is kept: a probe row is history, stored every run. */
export const STORAGE_LIMITS = {
  tools: 100,
  items: 100,
  paymentMethods: 20,
  quirks: 30,
  text: 500,
  schemaChars: 8_000,
} as const;

function short(value: string): string {
  return clip(value, STORAGE_LIMITS.text);
}

/** At most 20 parameters per item, each hint cut to 200 characters. */
function boundParams(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params)
      .slice(0, 20)
      .map(([name, hint]) => [clip(name, 100), clip(hint, 200)]),
  );
}

/**
 * What a paid tool's unpaid calls found, kept with the tool (the owner's account page reads it): its offers and
 * refusals capped like the server's other lists (a PaymentRequired may carry twenty), its words cut.
 */
function boundPayment(paid: ToolPayment): ToolPayment {
  return {
    ...paid,
    ...(paid.offers
      ? {
          offers: paid.offers.slice(0, STORAGE_LIMITS.paymentMethods).map((o) => ({
            scheme: o.scheme,
            network: clip(o.network, 100),
            units: clip(o.units, 100),
            payTo: clip(o.payTo, 100),
          })),
        }
      : {}),
    ...(paid.refused
      ? {
          refused: paid.refused
            .slice(0, STORAGE_LIMITS.paymentMethods)
            .map((r) => ({ index: r.index, reason: clip(r.reason, 200) })),
        }
      : {}),
    ...(paid.note === undefined ? {} : { note: clip(paid.note, 200) }),
  };
}

/** Caps the list, records the cut as a quirk. */
function capped<T>(list: T[], limit: number, what: string, quirks: Quirks): T[] {
  if (list.length <= limit) return list;
  quirks.add(`${what} cut to ${limit} of ${list.length}`);
  return list.slice(0, limit);
}

/** Bounds what a hostile or sprawling server can make us store. */
export function boundForStorage<
  T extends { tools: ProbedTool[]; pricedItems: PricedItem[]; paymentMethods: AcceptedPayment[] },
>(result: T, quirks: Quirks): T {
  const tools = capped(result.tools, STORAGE_LIMITS.tools, "tool list", quirks).map((tool) => {
    const schemaSize = JSON.stringify(tool.inputSchema ?? null).length;
    if (schemaSize > STORAGE_LIMITS.schemaChars)
      quirks.add(
        `input schema of \`${clip(tool.name, 60)}\` larger than ${STORAGE_LIMITS.schemaChars} characters, not stored`,
      );
    return {
      name: short(tool.name),
      description: tool.description === null ? null : short(tool.description),
      inputSchema: schemaSize > STORAGE_LIMITS.schemaChars ? null : tool.inputSchema,
      ...(tool.paid ? { paid: boundPayment(tool.paid) } : {}),
    };
  });
  const pricedItems = capped(result.pricedItems, STORAGE_LIMITS.items, "price listing", quirks).map((item) => ({
    ...item,
    name: short(item.name),
    ...(item.description === undefined ? {} : { description: short(item.description) }),
    ...(item.toolName === undefined ? {} : { toolName: short(item.toolName) }),
    ...(item.params === undefined ? {} : { params: boundParams(item.params) }),
  }));
  const paymentMethods = capped(result.paymentMethods, STORAGE_LIMITS.paymentMethods, "payment methods", quirks).map(
    (m) => ({
      paymentMethod: short(m.paymentMethod),
      walletAddress: short(m.walletAddress),
    }),
  );
  return { ...result, tools, pricedItems, paymentMethods };
}

export function boundQuirks(quirks: Quirks): string[] {
  const list = quirks.list();
  return list.length > STORAGE_LIMITS.quirks
    ? [...list.slice(0, STORAGE_LIMITS.quirks - 1), `and ${list.length - STORAGE_LIMITS.quirks + 1} more quirks`]
    : list;
}

/** The largest price per call a listing stores (the column's numeric(15,6); exact as a JS number). */
const MAX_LISTING_PRICE = 999_999_999.999999;

/** Whether `price` fits the listing's price column; a larger one is left unread with a quirk, never overflowed. */
export function storablePrice(price: number | null, quirks: Quirks): boolean {
  if (price === null) return true;
  if (Number.isFinite(price) && price >= 0 && price <= MAX_LISTING_PRICE) return true;
  quirks.add(
    `lowest price ${Number.isFinite(price) ? price : "(not a number)"} USDC is above the ${MAX_LISTING_PRICE} USDC Agora can list; price not updated`,
  );
  return false;
}
