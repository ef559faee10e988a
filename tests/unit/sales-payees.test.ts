// lib/sales/payees.ts: which listings a wallet's sales count for. Any server can name any wallet as its payee, so a
// wallet several listings name is credited to the one that named it first and its owner's other listings only.
import { describe, expect, it } from "vitest";
import { BASE_SEPOLIA, type PricedItem } from "@agora-mcp/protocol";
import { getAddress } from "viem";
import type { PaymentTerms } from "@/db/queries/sales";
import { listingsSold, payeesOn } from "@/lib/sales/payees";

const SELLER = "0x1111111111111111111111111111111111111111";
const OTHER = "0x2222222222222222222222222222222222222222";

function terms(
  listingId: string,
  ownerId: string | null,
  approvedAt: string,
  wallet: string,
  x402PayTo?: string,
): PaymentTerms {
  const pricedItems = x402PayTo
    ? ([
        { x402Requirements: { network: BASE_SEPOLIA.caip2, asset: BASE_SEPOLIA.asset, payTo: x402PayTo } },
      ] as unknown as PricedItem[])
    : [];
  return {
    listingId,
    ownerId,
    approvedAt: new Date(approvedAt),
    approvedTerms: null,
    paymentMethods: [{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: wallet }],
    pricedItems,
  };
}

// Which listings each wallet is credited to (prices aside).
const payees = (all: PaymentTerms[]) =>
  new Map(
    [...payeesOn(BASE_SEPOLIA, getAddress(BASE_SEPOLIA.asset), all)].map(([wallet, listings]) => [
      wallet,
      [...listings.keys()],
    ]),
  );

describe("payeesOn", () => {
  it("credits a wallet named by one listing to it, through payment methods and x402 tools alike", () => {
    const map = payees([terms("a", "alice", "2026-01-01", SELLER, OTHER)]);
    expect(map.get(getAddress(SELLER))).toEqual(["a"]);
    expect(map.get(getAddress(OTHER))).toEqual(["a"]);
  });

  it("does not credit a stranger's later listing that names a seller's wallet", () => {
    const map = payees([
      terms("mallory", "mallory", "2026-03-01", SELLER),
      terms("seller", "sam", "2026-01-01", SELLER),
    ]);
    expect(map.get(getAddress(SELLER))).toEqual(["seller"]);
  });

  it("credits every listing of the first listing's owner that names the wallet", () => {
    const map = payees([
      terms("one", "sam", "2026-01-01", SELLER),
      terms("two", "sam", "2026-02-01", SELLER),
      terms("x", "mallory", "2026-01-15", SELLER),
    ]);
    expect(map.get(getAddress(SELLER))?.sort()).toEqual(["one", "two"]);
  });

  it("goes by approval: a listing whose approved terms hold the wallet beats one approved earlier that names it only in a later check", () => {
    const approvedWith = (wallet: string, since: string) => ({
      prices: [],
      tools: [],
      wallets: [{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: wallet }],
      walletsSince: { [wallet.toLowerCase()]: since },
    });
    const squatter = {
      ...terms("squatter", "mallory", "2025-01-01", SELLER),
      approvedTerms: approvedWith(OTHER, "2025-01-01T00:00:00Z"),
    };
    const seller = {
      ...terms("seller", "sam", "2026-03-01", SELLER),
      approvedTerms: approvedWith(SELLER, "2026-03-01T00:00:00Z"),
    };
    expect(payees([squatter, seller]).get(getAddress(SELLER))).toEqual(["seller"]);
    // Re-approved later (an edit), the seller keeps the time its wallet was first approved.
    const reapproved = {
      ...seller,
      approvedAt: new Date("2026-06-01"),
      approvedTerms: approvedWith(SELLER, "2026-03-01T00:00:00Z"),
    };
    const rival = {
      ...terms("rival", "mallory", "2026-04-01", SELLER),
      approvedTerms: approvedWith(SELLER, "2026-04-01T00:00:00Z"),
    };
    expect(payees([rival, reapproved]).get(getAddress(SELLER))).toEqual(["seller"]);
  });

  it("breaks a tie of wallets taken in by one run by approval time, never by id", () => {
    // Listings approved before any check get their terms from their first checks, all in one run: one instant.
    const sameRun = (id: string, approvedAt: string) => ({
      ...terms(id, null, approvedAt, SELLER),
      approvedTerms: {
        prices: [],
        tools: [],
        wallets: [{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: SELLER }],
        walletsSince: { [SELLER.toLowerCase()]: "2026-11-27T00:00:00Z" },
      },
    });
    expect(
      payees([
        sameRun("aaa-newer", "2026-11-25"),
        sameRun("zzz-oldest", "2026-05-11"),
        sameRun("mmm", "2026-11-05"),
      ]).get(getAddress(SELLER)),
    ).toEqual(["zzz-oldest"]);
  });

  it("keeps an unowned import alone: two imports naming one wallet are not one owner's", () => {
    const map = payees([terms("import-1", null, "2026-01-01", SELLER), terms("import-2", null, "2026-01-02", SELLER)]);
    expect(map.get(getAddress(SELLER))).toEqual(["import-1"]);
  });
});

describe("listingsSold", () => {
  const sold = (all: PaymentTerms[], payee: string, amount: bigint) =>
    listingsSold(payeesOn(BASE_SEPOLIA, getAddress(BASE_SEPOLIA.asset), all), payee, amount);
  const item = (fields: Partial<PricedItem>): PricedItem => ({ name: "item", amount: 0, currency: "USDC", ...fields });

  it("counts a transfer only at a price the listing asked at that wallet", () => {
    const listing = {
      ...terms("a", "alice", "2026-01-01", SELLER),
      pricedItems: [item({ units: "30000" }), item({ amount: 0.25 })],
    };
    expect(sold([listing], SELLER, 30_000n)).toEqual(["a"]);
    expect(sold([listing], SELLER, 250_000n)).toEqual(["a"]);
    expect(sold([listing], SELLER, 1n)).toEqual([]);
    expect(sold([listing], OTHER, 30_000n)).toEqual([]);
  });

  it("takes an x402 tool's amount at its own payTo, and no free or non-dollar price", () => {
    const x402 = item({
      units: "20000",
      x402Requirements: {
        scheme: "exact",
        network: BASE_SEPOLIA.caip2,
        asset: BASE_SEPOLIA.asset,
        amount: "20000",
        payTo: OTHER,
        maxTimeoutSeconds: 60,
        extra: {},
      },
    });
    const listing = {
      ...terms("a", "alice", "2026-01-01", SELLER),
      pricedItems: [x402, item({ units: "0" }), item({ units: "5000", currency: "EUR" })],
    };
    expect(sold([listing], OTHER, 20_000n)).toEqual(["a"]);
    expect(sold([listing], SELLER, 20_000n)).toEqual([]);
    expect(sold([listing], SELLER, 0n)).toEqual([]);
    expect(sold([listing], SELLER, 5_000n)).toEqual([]);
  });
});
