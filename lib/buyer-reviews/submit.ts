// Accepting and revoking signed buyer reviews. A review is stored only when every check passes: the signature
// (domain, time window, signer), the listing, the sale on chain (paid by the signer to one of the listing's
// payees) and no earlier review of that sale; anything else answers a precise ApiError and stores nothing.
import { formatUsd, sameAddress, type SignedBuyerReview, type SignedBuyerReviewRevoke } from "@agora-mcp/protocol";
import { getAddress, keccak256, toBytes } from "viem";
import {
  findBuyerReviewBySale,
  findReviewableListing,
  insertBuyerReview,
  listingPayees,
  revokeBuyerReview,
} from "@/db/queries/buyer-reviews";
import type { BuyerReviewRow } from "@/db/schema";
import { paymentTermsNamingSince } from "@/db/queries/sales";
import type { Db } from "@/db/types";
import { ApiError } from "@/lib/errors";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { listingsSold, payeesOn } from "@/lib/sales/payees";
import { readSale } from "./sale";
import { checkSignature, type CheckedSignature } from "./signature";

/** How far back a listing's checks name the wallets and prices a reviewed sale may have paid (about the probe history kept). */
const PAYEE_WINDOW_DAYS = 31;

export function textHash(text: string): string {
  return keccak256(toBytes(text));
}

/**
 * The signature's checks, then the reviewing wallet's limit (each sale check costs chain reads). Counted only once
 * the signature proves the wallet: counted on the address a message merely names, anyone could use up a buyer's
 * limit with forged requests.
 */
async function signedByWallet(db: Db, signed: SignedBuyerReview | SignedBuyerReviewRevoke, primaryType: "Review" | "RevokeReview", site: string, now: Date): Promise<CheckedSignature> {
  const checked = await checkSignature(signed, primaryType, site, now);
  await enforceLimit(db, limits.buyerReviewsPerWallet, checked.reviewer);
  return checked;
}

async function listingOf(db: Db, key: string) {
  const listing = await findReviewableListing(db, key);
  if (!listing) throw new ApiError(404, `No listed server "${key.slice(0, 100)}" in the marketplace.`);
  return listing;
}

/** `site`: this deployment's origin, which the signed message must name. */
export async function acceptBuyerReview(db: Db, signed: SignedBuyerReview, site: string, now = new Date()): Promise<BuyerReviewRow> {
  const { network, txHash, reviewer } = await signedByWallet(db, signed, "Review", site, now);
  const { message } = signed;
  const listing = await listingOf(db, message.listing);
  // A sale reviewed before is refused before the chain is asked again.
  const earlier = await findBuyerReviewBySale(db, network.chainId, txHash, message.logIndex === -1 ? undefined : message.logIndex);
  if (earlier.length > 0 && message.logIndex !== -1) throw duplicate(txHash);
  const sale = await readSale(network, txHash, message.logIndex);
  if (earlier.some((r) => r.logIndex === sale.logIndex)) throw duplicate(txHash);
  const payees = await listingPayees(db, listing.id, network.paymentMethod, PAYEE_WINDOW_DAYS, now);
  if (!payees.includes(sale.payee.toLowerCase())) {
    throw new ApiError(403, `This sale paid ${sale.payee}, which is not a wallet of "${listing.slug}" (its checks found ${payees.length ? payees.join(", ") : "no payee"}). Review the listing you paid.`);
  }
  // The rules the sales indexer counts sales by: a wallet several listed listings name is the first approved with it
  // (and its owner's other listings'), and a transfer is a sale only at a price the listing's checks asked there.
  // Pending, rejected and hidden listings are not among them, so they never block a review.
  const since = new Date(now.getTime() - PAYEE_WINDOW_DAYS * 86_400_000);
  const terms = payeesOn(network, getAddress(network.asset), await paymentTermsNamingSince(db, sale.payee, since));
  if (!terms.get(getAddress(sale.payee))?.has(listing.id)) {
    throw new ApiError(403, `This sale paid ${sale.payee}, a wallet "${listing.slug}" shares with a listing approved with it before, by another owner: its sales count for that listing. Review the listing you paid.`);
  }
  if (!listingsSold(terms, sale.payee, sale.amount).includes(listing.id)) {
    throw new ApiError(403, `This sale paid ${formatUsd(sale.amount)} to ${sale.payee}, which is no price "${listing.slug}" asked there: only a purchase at a listed price is a verified purchase.`);
  }
  if (payees.some((p) => sameAddress(p, reviewer))) throw new ApiError(403, "A listing's own payee wallet cannot review it (self-feedback).");
  if (!sameAddress(sale.payer, reviewer)) throw new ApiError(403, `This sale was paid by ${sale.payer}, not by ${reviewer}: only the wallet that paid can review it.`);
  const stored = await insertBuyerReview(db, {
    listingId: listing.id,
    chainId: network.chainId,
    txHash,
    logIndex: sale.logIndex,
    payer: sale.payer,
    payee: sale.payee,
    amount: sale.amount.toString(),
    blockNumber: sale.blockNumber,
    paidAt: sale.paidAt,
    rating: message.rating,
    text: message.text,
    textHash: textHash(message.text),
    signature: signed.signature.toLowerCase(),
    signedAt: new Date(message.issuedAt * 1000),
  });
  if (!stored.ok) throw duplicate(txHash);
  return stored.review;
}

function duplicate(txHash: string) {
  return new ApiError(409, `This sale (transaction ${txHash}) already has a review; a sale is reviewed once.`);
}

/** Revokes the reviewer's own review of a sale (signed again). */
export async function revokeOwnBuyerReview(db: Db, signed: SignedBuyerReviewRevoke, site: string, now = new Date()): Promise<BuyerReviewRow> {
  const { network, txHash, reviewer } = await signedByWallet(db, signed, "RevokeReview", site, now);
  const listing = await listingOf(db, signed.message.listing);
  const found = (await findBuyerReviewBySale(db, network.chainId, txHash, signed.message.logIndex === -1 ? undefined : signed.message.logIndex)).filter(
    (r) => r.listingId === listing.id,
  );
  if (found.length === 0) throw new ApiError(404, `No review of transaction ${txHash} on "${listing.slug}".`);
  if (found.length > 1) throw new ApiError(400, `Transaction ${txHash} has ${found.length} reviews; name yours by logIndex.`);
  const review = found[0]!;
  if (!sameAddress(review.payer, reviewer)) throw new ApiError(403, `This review was written by ${review.payer}; only its reviewer can revoke it.`);
  if (!(await revokeBuyerReview(db, review.id, signed.signature.toLowerCase()))) throw new ApiError(409, "This review is already revoked.");
  return { ...review, revokedAt: now };
}
