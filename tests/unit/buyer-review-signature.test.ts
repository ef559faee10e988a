// Pins the EIP-712 types of buyer reviews: the signed type strings, digests and signatures made with them must not
// change, or every review and revocation already signed (by the agent client or any wallet software) stops verifying.
import { describe, expect, it } from "vitest";
import { BUYER_REVIEW_TYPES, buyerReviewDomain } from "@agora-mcp/protocol";
import { hashTypedData } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { checkSignature } from "@/lib/buyer-reviews/signature";

// A throwaway key known to the test only; the signatures below were made with it when the types were last edited
// (version 2: the message names the deployment, `site`; changed them on purpose).
const signer = privateKeyToAccount(`0x${"42".repeat(32)}`);
const domain = buyerReviewDomain(84532);
const SITE = "https://agora.example";
const revoke = {
  site: SITE,
  listing: "weather-now",
  taskRef: `eip155:84532:0x${"ab".repeat(32)}`,
  logIndex: -1,
  reviewer: signer.address,
  issuedAt: 1_790_000_000,
  expiresAt: 1_790_003_600,
};
const review = { ...revoke, rating: 4, text: "Fast and right.\nWould buy again." };
const asSigned = <M extends { logIndex: number; issuedAt: number; expiresAt: number }>(m: M) => ({
  ...m,
  logIndex: BigInt(m.logIndex),
  issuedAt: BigInt(m.issuedAt),
  expiresAt: BigInt(m.expiresAt),
});

const PINNED = {
  Review: {
    type: "Review(string site,string listing,string taskRef,int256 logIndex,address reviewer,uint8 rating,string text,uint64 issuedAt,uint64 expiresAt)",
    digest: "0xca5bb4be3498f76b0ef3f7424d93067a7ebc1c6906021dfba0b048b0b9e4c309",
    signature:
      "0x7486422df034138158655ad7d29129ea10a7ff72168d8117c8d4b653e65a057e43764a2c521978abd2f9e2f20d1ea050fd577949730c290c4cde5fead023e0d41c",
  },
  RevokeReview: {
    type: "RevokeReview(string site,string listing,string taskRef,int256 logIndex,address reviewer,uint64 issuedAt,uint64 expiresAt)",
    digest: "0xe06309f08690e84c530ea587b32a6313d9410c87ba0dae61f0fe71fcc6645edf",
    signature:
      "0x90bf7d95365ad1301048e014eaaaa2e00cdfd5bce2fb356446b2b400f18cfb3f64a54a5faab2aee5d303d0addfcb17f7b98895079811d521a0571a54600dca241c",
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
    expect(hashTypedData({ domain, types: BUYER_REVIEW_TYPES, primaryType: "Review", message: asSigned(review) })).toBe(
      PINNED.Review.digest,
    );
    expect(
      hashTypedData({ domain, types: BUYER_REVIEW_TYPES, primaryType: "RevokeReview", message: asSigned(revoke) }),
    ).toBe(PINNED.RevokeReview.digest);
    expect(
      await signer.signTypedData({
        domain,
        types: BUYER_REVIEW_TYPES,
        primaryType: "Review",
        message: asSigned(review),
      }),
    ).toBe(PINNED.Review.signature);
    expect(
      await signer.signTypedData({
        domain,
        types: BUYER_REVIEW_TYPES,
        primaryType: "RevokeReview",
        message: asSigned(revoke),
      }),
    ).toBe(PINNED.RevokeReview.signature);
  });

  it("accept signatures made before on the site's check", async () => {
    const now = new Date((review.issuedAt + 60) * 1000);
    await expect(
      checkSignature({ domain, message: review, signature: PINNED.Review.signature }, "Review", SITE, now),
    ).resolves.toMatchObject({ reviewer: signer.address });
    await expect(
      checkSignature({ domain, message: revoke, signature: PINNED.RevokeReview.signature }, "RevokeReview", SITE, now),
    ).resolves.toMatchObject({ reviewer: signer.address });
    // The revocation's signature is no review's.
    await expect(
      checkSignature({ domain, message: review, signature: PINNED.RevokeReview.signature }, "Review", SITE, now),
    ).rejects.toThrow(/not by the reviewer/);
  });

  it("refuse a review signed for another Agora deployment, even with a good signature", async () => {
    const now = new Date((review.issuedAt + 60) * 1000);
    await expect(
      checkSignature(
        { domain, message: review, signature: PINNED.Review.signature },
        "Review",
        "https://other-agora.example",
        now,
      ),
    ).rejects.toThrow(
      'This review was signed for the Agora at https://agora.example, not for this one (https://other-agora.example): sign it again with site "https://other-agora.example".',
    );
    // Naming the other deployment in the message breaks the signature instead.
    const moved = { ...review, site: "https://other-agora.example" };
    await expect(
      checkSignature(
        { domain, message: moved, signature: PINNED.Review.signature },
        "Review",
        "https://other-agora.example",
        now,
      ),
    ).rejects.toThrow(/not by the reviewer/);
  });
});
