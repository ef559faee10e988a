// Accepting and revoking signed buyer reviews. A review is stored only when every check passes: the signature
// (domain, time window, signer), the listing, the sale on chain (paid by the signer to one of the listing's
// payees) and no earlier review of that sale; anything else answers a precise ApiError and stores nothing.
// Delivery receipts (./receipts) pass the same sale checks (verifiedSale).
import {
  formatUsd,
  sameAddress,
  type BUYER_SIGNED_TYPES,
  type PaymentNetwork,
  type SignedBuyerReceipt,
  type SignedBuyerReview,
  type SignedBuyerReviewRevoke,
} from "@agora-mcp/protocol";
import { getAddress, keccak256, toBytes, type Hex } from "viem";
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
import { enforceLimit, limits, type Limit } from "@/lib/rate-limit";
import { listingsSold, payeesOn } from "@/lib/sales/payees";
import { readSale } from "./sale";
import { checkSignature, type CheckedSignature } from "./signature";

/** How far back a listing's checks name the wallets and prices a reviewed sale may have paid (about the probe history kept). */
const PAYEE_WINDOW_DAYS = 31;

export function textHash(text: string): string {
  return keccak256(toBytes(text));
}

/** What a buyer's signed statement does with the sale, in the refusals' words: "review", "send a receipt for". */
type Act = { verb: string; capitalized: string };
const REVIEW: Act = { verb: "review", capitalized: "Review" };

/** The signed statements about a sale: a review, its revocation, a delivery receipt. */
type SignedStatement = SignedBuyerReview | SignedBuyerReviewRevoke | SignedBuyerReceipt;
type Signing = { primaryType: keyof typeof BUYER_SIGNED_TYPES; limit: Limit; site: string; now: Date };

/**
 * The signature's checks, then the signing wallet's limit (each sale check costs chain reads). Counted only once
 * the signature proves the wallet: counted on the address a message merely names, anyone could use up a buyer's
 * limit with forged requests.
 */
async function signedByWallet(
  db: Db,
  signed: SignedStatement,
  { primaryType, limit, site, now }: Signing,
): Promise<CheckedSignature> {
  const checked = await checkSignature(signed, primaryType, site, now);
  await enforceLimit(db, limit, checked.reviewer);
  return checked;
}

async function listingOf(db: Db, key: string) {
  const listing = await findReviewableListing(db, key);
  if (!listing) throw new ApiError(404, `No listed server "${key.slice(0, 100)}" in the marketplace.`);
  return listing;
}

type VerifiedSale = {
  listing: NonNullable<Awaited<ReturnType<typeof listingOf>>>;
  network: PaymentNetwork;
  txHash: Hex;
  sale: Awaited<ReturnType<typeof readSale>>;
};

/**
 * A signed statement about one sale of a listing, checked as a review is: the signature, the listing, the sale on
 * chain (paid by the signer to one of the listing's payees at a price it asked) and, through `earlier` (the
 * statements of this kind already stored for the transaction), no earlier one of that sale (`duplicate` refuses it).
 */
export async function verifiedSale(
  db: Db,
  signed: SignedBuyerReview | SignedBuyerReceipt,
  signing: Signing,
  act: Act,
  earlierOf: (chainId: number, txHash: string, logIndex?: number) => Promise<{ logIndex: number }[]>,
  duplicate: (txHash: string) => ApiError,
): Promise<VerifiedSale> {
  const { now } = signing;
  const { network, txHash, reviewer } = await signedByWallet(db, signed, signing);
  const { message } = signed;
  const listing = await listingOf(db, message.listing);
  // A sale stated on before is refused before the chain is asked again.
  const earlier = await earlierOf(network.chainId, txHash, message.logIndex === -1 ? undefined : message.logIndex);
  if (earlier.length > 0 && message.logIndex !== -1) throw duplicate(txHash);
  const sale = await readSale(network, txHash, message.logIndex);
  if (earlier.some((r) => r.logIndex === sale.logIndex)) throw duplicate(txHash);
  const payees = await listingPayees(db, listing.id, network.paymentMethod, PAYEE_WINDOW_DAYS, now);
  if (!payees.includes(sale.payee.toLowerCase())) {
    throw new ApiError(
      403,
      `This sale paid ${sale.payee}, which is not a wallet of "${listing.slug}" (its checks found ${payees.length ? payees.join(", ") : "no payee"}). ${act.capitalized} the listing you paid.`,
    );
  }
  // The rules the sales indexer counts sales by: a wallet several listed listings name is the first approved with it
  // (and its owner's other listings'), and a transfer is a sale only at a price the listing's checks asked there.
  // Pending, rejected and hidden listings are not among them, so they never block a review.
  const since = new Date(now.getTime() - PAYEE_WINDOW_DAYS * 86_400_000);
  const terms = payeesOn(network, getAddress(network.asset), await paymentTermsNamingSince(db, sale.payee, since));
  if (!terms.get(getAddress(sale.payee))?.has(listing.id)) {
    throw new ApiError(
      403,
      `This sale paid ${sale.payee}, a wallet "${listing.slug}" shares with a listing approved with it before, by another owner: its sales count for that listing. ${act.capitalized} the listing you paid.`,
    );
  }
  if (!listingsSold(terms, sale.payee, sale.amount).includes(listing.id)) {
    throw new ApiError(
      403,
      `This sale paid ${formatUsd(sale.amount)} to ${sale.payee}, which is no price "${listing.slug}" asked there: only a purchase at a listed price is a verified purchase.`,
    );
  }
  if (payees.some((p) => sameAddress(p, reviewer)))
    throw new ApiError(403, `A listing's own payee wallet cannot ${act.verb} it (self-feedback).`);
  if (!sameAddress(sale.payer, reviewer))
    throw new ApiError(
      403,
      `This sale was paid by ${sale.payer}, not by ${reviewer}: only the wallet that paid can ${act.verb} it.`,
    );
  return { listing, network, txHash, sale };
}

/** The sale's columns every stored statement keeps, as read from the chain. */
export function saleColumns(
  { listing, network, txHash, sale }: VerifiedSale,
  signed: { signature: string; message: { issuedAt: number } },
) {
  return {
    listingId: listing.id,
    chainId: network.chainId,
    txHash,
    logIndex: sale.logIndex,
    payer: sale.payer,
    payee: sale.payee,
    amount: sale.amount.toString(),
    blockNumber: sale.blockNumber,
    paidAt: sale.paidAt,
    signature: signed.signature.toLowerCase(),
    signedAt: new Date(signed.message.issuedAt * 1000),
  };
}

/** `site`: this deployment's origin, which the signed message must name. */
export async function acceptBuyerReview(
  db: Db,
  signed: SignedBuyerReview,
  site: string,
  now = new Date(),
): Promise<BuyerReviewRow> {
  const signing = { primaryType: "Review" as const, limit: limits.buyerReviewsPerWallet, site, now };
  const verified = await verifiedSale(
    db,
    signed,
    signing,
    REVIEW,
    (chainId, txHash, logIndex) => findBuyerReviewBySale(db, chainId, txHash, logIndex),
    duplicate,
  );
  const { message } = signed;
  const stored = await insertBuyerReview(db, {
    ...saleColumns(verified, signed),
    rating: message.rating,
    text: message.text,
    textHash: textHash(message.text),
  });
  if (!stored.ok) throw duplicate(verified.txHash);
  return stored.review;
}

function duplicate(txHash: string) {
  return new ApiError(409, `This sale (transaction ${txHash}) already has a review; a sale is reviewed once.`);
}

/** Revokes the reviewer's own review of a sale (signed again). */
export async function revokeOwnBuyerReview(
  db: Db,
  signed: SignedBuyerReviewRevoke,
  site: string,
  now = new Date(),
): Promise<BuyerReviewRow> {
  const { network, txHash, reviewer } = await signedByWallet(db, signed, {
    primaryType: "RevokeReview",
    limit: limits.buyerReviewsPerWallet,
    site,
    now,
  });
  const listing = await listingOf(db, signed.message.listing);
  const found = (
    await findBuyerReviewBySale(
      db,
      network.chainId,
      txHash,
      signed.message.logIndex === -1 ? undefined : signed.message.logIndex,
    )
  ).filter((r) => r.listingId === listing.id);
  if (found.length === 0) throw new ApiError(404, `No review of transaction ${txHash} on "${listing.slug}".`);
  if (found.length > 1)
    throw new ApiError(400, `Transaction ${txHash} has ${found.length} reviews; name yours by logIndex.`);
  const review = found[0]!;
  if (!sameAddress(review.payer, reviewer))
    throw new ApiError(403, `This review was written by ${review.payer}; only its reviewer can revoke it.`);
  if (!(await revokeBuyerReview(db, review.id, signed.signature.toLowerCase())))
    throw new ApiError(409, "This review is already revoked.");
  return { ...review, revokedAt: now };
}
