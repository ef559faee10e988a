// The checks every signed buyer message (review, revocation, delivery receipt) passes before the chain is asked
// anything: the domain is Agora's for the sale's chain, the message names this deployment (a review signed for another
// Agora is refused here), the signature is within its time window, and it was made by the address the message names
// as reviewer.
import {
  BUYER_REVIEW_CLOCK_SKEW_SECONDS,
  BUYER_REVIEW_DOMAIN,
  BUYER_REVIEW_MAX_VALIDITY_SECONDS,
  BUYER_SIGNED_TYPES,
  buyerReviewDomain,
  findNetwork,
  parseTaskRef,
  type BuyerReviewDomain,
  type PaymentNetwork,
} from "@agora-mcp/protocol";
import { getAddress, recoverTypedDataAddress, type Address, type Hex } from "viem";
import { ApiError } from "@/lib/errors";

type Signed<M> = { domain: BuyerReviewDomain; message: M; signature: string };
type Common = {
  site: string;
  taskRef: string;
  logIndex: number;
  reviewer: string;
  issuedAt: number;
  expiresAt: number;
};

export type CheckedSignature = { network: PaymentNetwork; txHash: Hex; reviewer: Address };

/** `site`: this deployment's origin, which the message must name. */
export async function checkSignature<M extends Common>(
  signed: Signed<M>,
  primaryType: keyof typeof BUYER_SIGNED_TYPES,
  site: string,
  now = new Date(),
): Promise<CheckedSignature> {
  const { domain, message } = signed;
  // The refusals name what was signed: a delivery receipt, or a review (its revocation included).
  const what = primaryType === "Receipt" ? "receipt" : "review";
  const task = parseTaskRef(message.taskRef)!;
  const network = findNetwork(task.chainId)!;
  const expected = buyerReviewDomain(network.chainId);
  if (domain.name !== expected.name || domain.version !== expected.version || domain.chainId !== expected.chainId) {
    throw new ApiError(
      401,
      `The signature's EIP-712 domain is {name: "${domain.name.slice(0, 60)}", version: "${domain.version.slice(0, 20)}", chainId: ${domain.chainId}}; ` +
        `sign with {name: "${BUYER_REVIEW_DOMAIN.name}", version: "${BUYER_REVIEW_DOMAIN.version}", chainId: ${expected.chainId}} (the chain of the sale).`,
    );
  }
  if (message.site !== site) {
    throw new ApiError(
      401,
      `This ${what} was signed for the Agora at ${message.site.slice(0, 200)}, not for this one (${site}): sign it again with site "${site}".`,
    );
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (message.expiresAt <= nowSeconds)
    throw new ApiError(
      401,
      `The signature expired at ${new Date(message.expiresAt * 1000).toISOString()}; sign the ${what} again.`,
    );
  if (message.issuedAt > nowSeconds + BUYER_REVIEW_CLOCK_SKEW_SECONDS)
    throw new ApiError(401, "The signature is dated in the future; check the signing computer's clock.");
  if (
    message.expiresAt <= message.issuedAt ||
    message.expiresAt - message.issuedAt > BUYER_REVIEW_MAX_VALIDITY_SECONDS
  ) {
    throw new ApiError(
      401,
      `A signature may be valid for at most ${BUYER_REVIEW_MAX_VALIDITY_SECONDS / 60} minutes after issuedAt (expiresAt − issuedAt).`,
    );
  }
  let signer: Address;
  try {
    signer = await recoverTypedDataAddress({
      domain: expected,
      types: BUYER_SIGNED_TYPES,
      primaryType,
      message: {
        ...message,
        logIndex: BigInt(message.logIndex),
        issuedAt: BigInt(message.issuedAt),
        expiresAt: BigInt(message.expiresAt),
      } as never,
      signature: signed.signature as Hex,
    });
  } catch {
    throw new ApiError(401, "The signature cannot be read (not a valid secp256k1 signature).");
  }
  const reviewer = getAddress(message.reviewer);
  if (signer !== reviewer)
    throw new ApiError(401, `The signature was made by ${signer}, not by the reviewer ${reviewer} the message names.`);
  return { network, txHash: task.txHash, reviewer };
}
