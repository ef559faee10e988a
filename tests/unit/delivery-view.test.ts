import { describe, expect, it } from "vitest";
import { deliverySummary } from "@/lib/listings/delivery-view";

describe("the 30-day delivery line", () => {
  it("says how many test purchases delivered and how the others failed", () => {
    expect(deliverySummary({ delivered: 12, failedUncharged: 1, failedCharged: 0 })).toBe(
      "Delivered 12 of 13 test purchases in 30 days (1 failed, not charged)",
    );
    expect(deliverySummary({ delivered: 3, failedUncharged: 2, failedCharged: 1 })).toBe(
      "Delivered 3 of 6 test purchases in 30 days (2 failed, not charged; 1 failed after payment)",
    );
    expect(deliverySummary({ delivered: 0, failedUncharged: 0, failedCharged: 1 })).toBe(
      "Delivered 0 of 1 test purchase in 30 days (1 failed after payment)",
    );
    expect(deliverySummary({ delivered: 4, failedUncharged: 0, failedCharged: 0 })).toBe(
      "Delivered 4 of 4 test purchases in 30 days",
    );
  });

  it("says nothing when there were none", () => {
    expect(deliverySummary({ delivered: 0, failedUncharged: 0, failedCharged: 0 })).toBeNull();
  });
});
