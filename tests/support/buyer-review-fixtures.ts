// What the buyer-review tests share: a real purchase through a provider kit's make-purchase (x402 v1 exact, settled
// on the local chain by the facilitator) and an EIP-712 review or revocation signed by a wallet.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import type { Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import {
  BASE_SEPOLIA,
  BUYER_SIGNED_TYPES,
  buildRequirements,
  buyerReviewDomain,
  encodePaymentV1,
  readPurchaseResult,
  type BuyerReviewDomain,
} from "@agora-mcp/protocol";

/** Buys the kit's `quote` item for `units` paid to `payTo`; the settlement transaction's hash. */
export async function buyQuote(
  shop: Client,
  buyer: PrivateKeyAccount,
  payTo: `0x${string}`,
  units: bigint,
): Promise<Hex> {
  const req = buildRequirements({ network: BASE_SEPOLIA, units, payTo, resource: { url: "mcp://shop#quote" } }).v1;
  const payment = await new ExactEvmSchemeV1(buyer).createPaymentPayload(1, req as never);
  const answer = await shop.callTool({
    name: "make-purchase",
    arguments: {
      itemId: "quote",
      params: { topic: "tea" },
      signedTransaction: encodePaymentV1(payment as never),
      paymentMethod: "USDC_BASE_SEPOLIA",
    },
  });
  const outcome = readPurchaseResult(answer);
  if (!outcome.ok || !outcome.transaction)
    throw new Error(`purchase failed: ${outcome.ok ? "no transaction" : outcome.reason}`);
  return outcome.transaction as Hex;
}

type ReviewMessage = { logIndex: number; issuedAt: number; expiresAt: number } & Record<string, unknown>;

/** The deployment route tests post to (their requests' origin; no SITE_URL is set): what a message names by default. */
export const TEST_SITE = "http://localhost";

/**
 * The body POST /api/buyer-reviews (or /revoke, /receipts) takes: the message (for TEST_SITE unless it names a site), its domain
 * and `signer`'s signature.
 */
export async function signBuyerMessage<M extends ReviewMessage>(
  signer: PrivateKeyAccount,
  primaryType: keyof typeof BUYER_SIGNED_TYPES,
  unsigned: M,
  domain: BuyerReviewDomain = buyerReviewDomain(BASE_SEPOLIA.chainId),
) {
  const message = { site: TEST_SITE, ...unsigned };
  const signature = await signer.signTypedData({
    domain,
    types: BUYER_SIGNED_TYPES,
    primaryType,
    message: {
      ...message,
      logIndex: BigInt(message.logIndex),
      issuedAt: BigInt(message.issuedAt),
      expiresAt: BigInt(message.expiresAt),
    } as never,
  });
  return { domain, message, signature };
}
