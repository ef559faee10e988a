import { describe, expect, it } from "vitest";
import { purchaseTerms } from "@/lib/wallet/purchase-terms";

describe("purchaseTerms", () => {
  it("names a metered call's maximum beside what it paid", () => {
    expect(purchaseTerms({ kind: "metered", amountUnits: "30000", askedUnits: "100000" })).toBe(
      "Metered: up to $0.10, paid $0.03",
    );
  });

  it("counts a channel claim's calls exactly, one call in the singular", () => {
    expect(purchaseTerms({ kind: "channel", amountUnits: "50000", askedUnits: "1000" })).toBe(
      "Payment channel: 50 calls at $0.001",
    );
    expect(purchaseTerms({ kind: "channel", amountUnits: "1000", askedUnits: "1000" })).toBe(
      "Payment channel: 1 call at $0.001",
    );
    // Beyond a double's exact integers: bigint division, no rounding.
    expect(purchaseTerms({ kind: "channel", amountUnits: "9007199254740993000", askedUnits: "1000" })).toBe(
      "Payment channel: 9,007,199,254,740,993 calls at $0.001",
    );
  });

  it("says nothing it cannot know: a plain purchase, a sale stored before its terms were kept, a claim that is no whole number of calls", () => {
    expect(purchaseTerms({ kind: "exact", amountUnits: "10000", askedUnits: "10000" })).toBeNull();
    expect(purchaseTerms({ kind: "metered", amountUnits: "30000", askedUnits: null })).toBeNull();
    expect(purchaseTerms({ kind: "channel", amountUnits: "1500", askedUnits: "1000" })).toBe(
      "Payment channel: $0.0015 claimed",
    );
  });
});
