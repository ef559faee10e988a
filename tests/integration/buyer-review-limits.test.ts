// The per-wallet limit on buyer reviews counts only requests the wallet itself signed. It bounds the chain reads a
// wallet can cause; counted before the signature was checked, anyone could use it up by naming a stranger's
// wallet in unsigned (or wrongly signed) requests and so keep that buyer from reviewing for an hour.
// No chain is needed: every request here stops before one would be asked (a forged signature at 401, a genuine one
// at the unknown listing it names, 404).
import { BASE_SEPOLIA, BUYER_REVIEW_TYPES, buyerReviewDomain, taskRefOf } from "@agora-mcp/protocol";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postReview } from "@/app/api/buyer-reviews/route";
import { POST as postRevoke } from "@/app/api/buyer-reviews/revoke/route";
import { limits } from "@/lib/rate-limit";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { call, jsonRequest } from "../support/route-client";

const TX = `0x${"ab".repeat(32)}` as const;

async function signedBody(kind: "Review" | "RevokeReview", reviewer: `0x${string}`, signer: PrivateKeyAccount) {
  const issuedAt = Math.floor(Date.now() / 1000);
  const common = {
    site: "http://localhost",
    listing: "no-such-listing",
    taskRef: taskRefOf(BASE_SEPOLIA.chainId, TX),
    logIndex: -1,
    reviewer,
    issuedAt,
    expiresAt: issuedAt + 600,
  };
  const message = kind === "Review" ? { ...common, rating: 1, text: "" } : common;
  const domain = buyerReviewDomain(BASE_SEPOLIA.chainId);
  const signature = await signer.signTypedData({
    domain,
    types: BUYER_REVIEW_TYPES,
    primaryType: kind,
    message: {
      ...message,
      logIndex: BigInt(message.logIndex),
      issuedAt: BigInt(issuedAt),
      expiresAt: BigInt(message.expiresAt),
    } as never,
  });
  return { domain, message, signature };
}

describe.each(drivers())("buyer review limits on %s", (driver) => {
  let conn: TestConnection;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    delete process.env.RATE_LIMIT_DISABLED;
    reloadEnv();
  });
  afterAll(async () => conn?.close());

  for (const [kind, route, path] of [
    ["Review", postReview, "/api/buyer-reviews"],
    ["RevokeReview", postRevoke, "/api/buyer-reviews/revoke"],
  ] as const) {
    it(`${kind}: requests forged in a wallet's name do not use up its limit; its own signed requests do`, async () => {
      const buyer = privateKeyToAccount(generatePrivateKey());
      const attacker = privateKeyToAccount(generatePrivateKey());
      // Each request from its own client address, as an attacker with many addresses would send them.
      for (let i = 0; i < limits.buyerReviewsPerWallet.max + 5; i++) {
        const forged = await call(route, jsonRequest(path, await signedBody(kind, buyer.address, attacker)));
        expect(forged.status).toBe(401);
      }
      for (let i = 0; i < limits.buyerReviewsPerWallet.max; i++) {
        const own = await call(route, jsonRequest(path, await signedBody(kind, buyer.address, buyer)));
        expect(own.status, own.body.message).toBe(404);
      }
      const over = await call(route, jsonRequest(path, await signedBody(kind, buyer.address, buyer)));
      expect(over.status).toBe(429);
      expect(over.body.message).toMatch(/^Too many reviews from this wallet\./);
    });
  }
});
