// Pins the EIP-712 types of buyer reviews: the signed type strings, digests and signatures made with them must not
// change, or every review and revocation already signed (by the agent client or any wallet software) stops verifying.
import { describe, expect, it } from "vitest";
import { BUYER_REVIEW_TYPES, buyerReviewDomain } from "@agora-mcp/protocol";
import { hashTypedData } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { checkSignature } from "@/lib/buyer-reviews/signature";

// A throwaway key known to the test only; the signatures below were made with it before the types were last edited.
const signer = privateKeyToAccount(`0x${"42".repeat(32)}`);
const domain = buyerReviewDomain(84532);
const revoke = { listing: "weather-now", taskRef: `eip155:84532:0x${"ab".repeat(32)}`, logIndex: -1, reviewer: signer.address, issuedAt: 1_790_000_000, expiresAt: 1_790_003_600 };
const review = { ...revoke, rating: 4, text: "Fast and right.\nWould buy again." };
const asSigned = <M extends { logIndex: number; issuedAt: number; expiresAt: number }>(m: M) => ({
  ...m,
  logIndex: BigInt(m.logIndex),
  issuedAt: BigInt(m.issuedAt),
  expiresAt: BigInt(m.expiresAt),
});

const PINNED = {
  Review: {
    type: "Review(string listing,string taskRef,int256 logIndex,address reviewer,uint8 rating,string text,uint64 issuedAt,uint64 expiresAt)",
    digest: "0x309545c8b86eba67ed5170699d7e2bdc405a2ab91f805c7d201af2b88da7c46f",
    signature:
      "0x796850f0180213b129c80f830577aa7e5902a432f9a9840aa0721589345dd2dc45fcc306e8e47e55caa381e8a97a8b66a0c278f11e60a9547c1c65bc4565163f1b",
  },
  RevokeReview: {
    type: "RevokeReview(string listing,string taskRef,int256 logIndex,address reviewer,uint64 issuedAt,uint64 expiresAt)",
    digest: "0xad78ade8b3bea5b6a934718df84d96c4eefc320fe677424a5f67f763cd8cd531",
    signature:
      "0x249adc30244e72d752ca4050ecd6e264e4084ba0d822188e62420dd23f6d129f09c1dfc4127c6759ffec4fb818d7340905f49649947ae95ad7322891f80f441c1c",
  },
} as const;

/** EIP-712 encodeType of a type without nested structs. */
function encodeType(name: keyof typeof BUYER_REVIEW_TYPES): string {
  return `${name}(${BUYER_REVIEW_TYPES[name].map((f) => `${f.type} ${f.name}`).join(",")})`;
}

describe("buyer review EIP-712 types", () => {
  it("keep the signed type strings", () => {
    expect(encodeType("Review")).toBe(PINNED.Review.type);
    expect(encodeType("RevokeReview")).toBe(PINNED.RevokeReview.type);
    expect(Object.keys(BUYER_REVIEW_TYPES)).toEqual(["Review", "RevokeReview"]);
  });

  it("hash and sign a review and a revocation exactly as before", async () => {
    expect(hashTypedData({ domain, types: BUYER_REVIEW_TYPES, primaryType: "Review", message: asSigned(review) })).toBe(PINNED.Review.digest);
    expect(hashTypedData({ domain, types: BUYER_REVIEW_TYPES, primaryType: "RevokeReview", message: asSigned(revoke) })).toBe(PINNED.RevokeReview.digest);
    expect(await signer.signTypedData({ domain, types: BUYER_REVIEW_TYPES, primaryType: "Review", message: asSigned(review) })).toBe(PINNED.Review.signature);
    expect(await signer.signTypedData({ domain, types: BUYER_REVIEW_TYPES, primaryType: "RevokeReview", message: asSigned(revoke) })).toBe(PINNED.RevokeReview.signature);
  });

  it("accept signatures made before on the site's check", async () => {
    const now = new Date((review.issuedAt + 60) * 1000);
    await expect(checkSignature({ domain, message: review, signature: PINNED.Review.signature }, "Review", now)).resolves.toMatchObject({ reviewer: signer.address });
    await expect(checkSignature({ domain, message: revoke, signature: PINNED.RevokeReview.signature }, "RevokeReview", now)).resolves.toMatchObject({ reviewer: signer.address });
    // The revocation's signature is no review's.
    await expect(checkSignature({ domain, message: review, signature: PINNED.RevokeReview.signature }, "Review", now)).rejects.toThrow(/not by the reviewer/);
  });
});
