// The delivery receipt's wire format: its EIP-712 type string (pinned: a changed field order would make every
// wallet's receipts unreadable), the body the site accepts, and the delivery evidence that counts receipts.
import { hashTypedData } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  BUYER_RECEIPT_TYPES,
  BUYER_SIGNED_TYPES,
  buyerReviewDomain,
  deliveryEvidenceSchema,
  deliveryRate,
  signedBuyerReceiptSchema,
} from "@agora-mcp/protocol";
import { deliverySummary } from "@/lib/listings/delivery-view";

const signer = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const message = {
  site: "https://agora.example",
  listing: "quote-shop",
  taskRef: `eip155:84532:0x${"ab".repeat(32)}`,
  logIndex: -1,
  reviewer: signer.address,
  delivered: true,
  issuedAt: 1_800_000_000,
  expiresAt: 1_800_000_600,
};
const typed = { ...message, logIndex: -1n, issuedAt: 1_800_000_000n, expiresAt: 1_800_000_600n };

describe("the signed delivery receipt", () => {
  it("is its own EIP-712 type: the sale, delivered, the validity", () => {
    const type = `Receipt(${BUYER_RECEIPT_TYPES.Receipt.map((f) => `${f.type} ${f.name}`).join(",")})`;
    expect(type).toBe(
      "Receipt(string site,string listing,string taskRef,int256 logIndex,address reviewer,bool delivered,uint64 issuedAt,uint64 expiresAt)",
    );
    const domain = buyerReviewDomain(84532);
    // Hashed beside the review types or alone, the digest is the same: only the primary type's struct is encoded.
    expect(hashTypedData({ domain, types: BUYER_SIGNED_TYPES, primaryType: "Receipt", message: typed })).toBe(
      hashTypedData({ domain, types: BUYER_RECEIPT_TYPES, primaryType: "Receipt", message: typed }),
    );
  });

  it("accepts a signed body and refuses one without a yes-or-no delivered, a bad signature or a foreign chain", async () => {
    const signature = await signer.signTypedData({
      domain: buyerReviewDomain(84532),
      types: BUYER_RECEIPT_TYPES,
      primaryType: "Receipt",
      message: typed,
    });
    const body = { domain: buyerReviewDomain(84532), message, signature };
    expect(signedBuyerReceiptSchema.safeParse(body).success).toBe(true);
    const { delivered: _d, ...withoutDelivered } = message;
    expect(signedBuyerReceiptSchema.safeParse({ ...body, message: withoutDelivered }).error?.issues[0]?.message).toBe(
      "delivered must be true or false.",
    );
    expect(signedBuyerReceiptSchema.safeParse({ ...body, message: { ...message, delivered: "true" } }).success).toBe(
      false,
    );
    expect(signedBuyerReceiptSchema.safeParse({ ...body, signature: "0x12" }).success).toBe(false);
    expect(
      signedBuyerReceiptSchema.safeParse({ ...body, message: { ...message, taskRef: `eip155:1:0x${"ab".repeat(32)}` } })
        .success,
    ).toBe(false);
  });
});

describe("delivery evidence with buyers' receipts", () => {
  it("keeps the totals (both sources) and an optional breakdown; the rate reads the totals", () => {
    const evidence = {
      delivered: 9,
      failedUncharged: 0,
      failedCharged: 1,
      buyerReceipts: { delivered: 4, failedCharged: 1 },
    };
    expect(deliveryEvidenceSchema.parse(evidence)).toEqual(evidence);
    expect(deliveryEvidenceSchema.parse({ delivered: 1, failedUncharged: 0, failedCharged: 0 })).toEqual({
      delivered: 1,
      failedUncharged: 0,
      failedCharged: 0,
    });
    expect(deliveryRate(evidence)).toBe(0.9);
  });

  it("says on the listing how many came from buyers", () => {
    expect(
      deliverySummary({
        delivered: 9,
        failedUncharged: 0,
        failedCharged: 1,
        buyerReceipts: { delivered: 4, failedCharged: 1 },
      }),
    ).toBe(
      "Delivered 9 of 10 purchases in 30 days (1 failed after payment); 5 of them reported by buyers' signed receipts",
    );
    expect(
      deliverySummary({
        delivered: 1,
        failedUncharged: 0,
        failedCharged: 0,
        buyerReceipts: { delivered: 1, failedCharged: 0 },
      }),
    ).toBe("Delivered 1 of 1 purchase in 30 days; 1 of them reported by a buyer's signed receipt");
  });
});
