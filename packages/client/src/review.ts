// Reviewing a server this wallet bought from, and withdrawing that review: the purchase is found in the ledger
// (only a paid one counts), the person confirms when elicitation is on, the wallet signs (EIP-712, the shared typed
// data of @agora-mcp/protocol: Review, RevokeReview) and the site checks the signature and the sale before it acts.
import {
  BUYER_SIGNED_TYPES,
  buyerReviewDomain,
  cleanReviewText,
  reviewSiteOf,
  taskRefOf,
  type BuyerReceiptMessage,
  type BuyerReviewMessage,
  type BuyerReviewRevokeMessage,
  type SignedBuyerReview,
  type SignedBuyerReviewRevoke,
} from "@agora-mcp/protocol";
import type { RegistryListing } from "@agora-mcp/protocol";
import type { Server } from "@modelcontextprotocol/server";
import { askPerson, supportsElicitation, type Confirmations } from "./confirm.js";
import type { Ledger, LedgerEntry, LedgerStatus } from "./ledger.js";
import { findListing, registryApiBase } from "./registry.js";
import type { Settings } from "./settings.js";
import type { Wallet } from "./wallet.js";

export type ReviewInput = {
  server: string;
  rating: number;
  text: string;
  transaction?: string;
  confirmationId?: string;
};
export type RevokeReviewInput = { server: string; transaction?: string; confirmationId?: string };

type Refusal = {
  status: "confirmation-required" | "declined" | "refused";
  message: string;
  server?: string;
  transaction?: string;
  confirmationId?: string;
};

export type ReviewOutcome = (Refusal | { status: "posted"; message: string; server: string; transaction: string }) & {
  reviewId?: string;
};
export type RevokeReviewOutcome = (
  Refusal | { status: "revoked"; message: string; server: string; transaction: string }
) & { reviewId?: string };

export type ReviewDeps = {
  settings: Settings;
  wallet: Wallet;
  ledger: Ledger;
  confirmations: Confirmations;
  mcp: Server;
};

const PAID: ReadonlySet<LedgerStatus> = new Set(["paid", "job-pending", "job-done"]);
const SIGNATURE_VALID_SECONDS = 600;
const POST_TIMEOUT_MS = 30_000;

/** The paid purchase to review: the named transaction, else the latest paid purchase from that server. */
function purchaseToReview(ledger: Ledger, serverUrl: string, transaction: string | undefined): LedgerEntry | undefined {
  const paid = ledger.attempts().filter((a) => PAID.has(a.status) && a.transaction && a.serverUrl === serverUrl);
  if (transaction) return paid.find((a) => a.transaction!.toLowerCase() === transaction.toLowerCase());
  return paid.at(-1);
}

/** The listing and this wallet's paid purchase from it, or the refusal to answer (nothing signed). */
async function reviewedPurchase(
  input: { server: string; transaction?: string },
  deps: ReviewDeps,
  what: string,
): Promise<{ listing: RegistryListing; transaction: string } | Refusal> {
  const listing = await findListing(deps.settings.registryUrl, input.server);
  const bought = purchaseToReview(deps.ledger, listing.serverUrl, input.transaction);
  if (!bought) {
    const which = input.transaction ? `transaction ${input.transaction.slice(0, 80)}` : "any purchase";
    return {
      status: "refused",
      message: `This wallet's ledger has no paid purchase from ${listing.name} (${which}); only a wallet that paid can ${what}. Nothing was signed.`,
      server: listing.name,
    };
  }
  return { listing, transaction: bought.transaction! };
}

type Ask = {
  question: string;
  key: string;
  tool: string;
  again: string;
  declined: string;
  choice: { title: string; description: string };
};

/**
 * When confirmations are on, the person says yes first: through elicitation when the host has it, else with the
 * one-time id a first call answers, bound to exactly this request (`key`). Null: go ahead.
 */
async function confirmed(deps: ReviewDeps, confirmationId: string | undefined, ask: Ask): Promise<Refusal | null> {
  if (!deps.settings.elicitation) return null;
  if (supportsElicitation(deps.mcp))
    return (await askPerson(deps.mcp, ask.question, ask.choice)) === "accepted"
      ? null
      : { status: "declined", message: ask.declined };
  if (confirmationId && deps.confirmations.redeem(confirmationId, ask.key)) return null;
  const issued = deps.confirmations.issue(ask.key);
  return {
    status: "confirmation-required",
    message: `${ask.question}\nAsk the person; if they agree, call ${ask.tool} again with ${ask.again} and confirmationId "${issued.confirmationId}" (valid until ${issued.expiresAt}).`,
    confirmationId: issued.confirmationId,
  };
}

/** Signs one of the buyer messages (review, revocation, delivery receipt) with the wallet, in the body shape the registry's endpoints take. */
export async function signed<T extends BuyerReviewMessage | BuyerReviewRevokeMessage | BuyerReceiptMessage>(
  wallet: Wallet,
  chainId: number,
  primaryType: keyof typeof BUYER_SIGNED_TYPES,
  message: T,
) {
  const domain = buyerReviewDomain(chainId);
  const typed = {
    ...message,
    logIndex: BigInt(message.logIndex),
    issuedAt: BigInt(message.issuedAt),
    expiresAt: BigInt(message.expiresAt),
  };
  const signature = await wallet.account.signTypedData({
    domain,
    types: BUYER_SIGNED_TYPES,
    primaryType,
    message: typed as never,
  });
  return { domain, message, signature };
}

/** `site`: the origin of the Agora deployment the review is for (another deployment refuses it). */
export function messageBase(
  wallet: Wallet,
  site: string,
  chainId: number,
  listingId: string,
  transaction: string,
  now: number,
) {
  const issuedAt = Math.floor(now / 1000);
  return {
    site,
    listing: listingId,
    taskRef: taskRefOf(chainId, transaction),
    logIndex: -1,
    reviewer: wallet.address,
    issuedAt,
    expiresAt: issuedAt + SIGNATURE_VALID_SECONDS,
  };
}

/**
 * The signed body of POST /buyer-reviews: this wallet's rating and text for its purchase `transaction`, for the Agora
 * at `site`. Invisible characters (zero-width, text-direction controls) are taken out of the text before it is signed.
 */
export function signReview(
  wallet: Wallet,
  site: string,
  chainId: number,
  listingId: string,
  transaction: string,
  review: { rating: number; text: string },
  now = Date.now(),
): Promise<SignedBuyerReview> {
  return signed(wallet, chainId, "Review", {
    ...messageBase(wallet, site, chainId, listingId, transaction, now),
    rating: review.rating,
    text: cleanReviewText(review.text),
  });
}

/** The signed body of POST /buyer-reviews/revoke: this wallet withdraws its review of its purchase `transaction`. */
export function signRevocation(
  wallet: Wallet,
  site: string,
  chainId: number,
  listingId: string,
  transaction: string,
  now = Date.now(),
): Promise<SignedBuyerReviewRevoke> {
  return signed(wallet, chainId, "RevokeReview", messageBase(wallet, site, chainId, listingId, transaction, now));
}

export async function post(
  settings: Settings,
  path: string,
  body: unknown,
): Promise<{ status: number; headers?: Headers; body: { message?: string; id?: string; review?: { id?: string } } }> {
  const response = await fetch(`${registryApiBase(settings.registryUrl)}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(POST_TIMEOUT_MS),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json().catch(() => ({}))) as { message?: string; id?: string; review?: { id?: string } },
  };
}

const refusedBy = (what: string, answer: { status: number; body: { message?: string } }) =>
  `The registry refused the ${what} (${answer.status}): ${String(answer.body.message ?? "no reason given").slice(0, 300)}`;

export async function review(asked: ReviewInput, deps: ReviewDeps): Promise<ReviewOutcome> {
  // The person confirms, and the wallet signs, the text as it will be shown: without invisible characters.
  const input = { ...asked, text: cleanReviewText(asked.text) };
  const found = await reviewedPurchase(input, deps, "review");
  if ("status" in found) return found;
  const { listing, transaction } = found;
  const base = { server: listing.name, transaction };
  const question = `Post this review of ${listing.name} from wallet ${deps.wallet.address} (purchase ${transaction})? ${input.rating} of 5 stars: "${input.text}"`;
  const key = JSON.stringify(["review", listing.id, transaction, input.rating, input.text]);
  const choice = { title: "Post", description: "Post this review, signed by this wallet" };
  const declined = "The person declined; the review was not signed or sent.";
  const stop = await confirmed(deps, input.confirmationId, {
    question,
    key,
    tool: "review",
    again: "the same rating and text",
    declined,
    choice,
  });
  if (stop) return { ...stop, ...base };
  const answer = await post(
    deps.settings,
    "/buyer-reviews",
    await signReview(
      deps.wallet,
      reviewSiteOf(deps.settings.registryUrl),
      deps.settings.network.chainId,
      listing.id,
      transaction,
      input,
    ),
  );
  if (answer.status !== 201) return { status: "refused", message: refusedBy("review", answer), ...base };
  return {
    status: "posted",
    message: `Posted your ${input.rating}-star review of ${listing.name}, verified against purchase ${transaction}.`,
    ...base,
    reviewId: answer.body.review?.id,
  };
}

export async function revokeReview(input: RevokeReviewInput, deps: ReviewDeps): Promise<RevokeReviewOutcome> {
  const found = await reviewedPurchase(input, deps, "revoke a review");
  if ("status" in found) return found;
  const { listing, transaction } = found;
  const base = { server: listing.name, transaction };
  const question = `Withdraw this wallet's (${deps.wallet.address}) review of ${listing.name} for purchase ${transaction}? It will no longer be shown or counted, and that purchase cannot be reviewed again.`;
  const key = JSON.stringify(["revoke_review", listing.id, transaction]);
  const choice = { title: "Withdraw", description: "Withdraw this review, signed by this wallet" };
  const declined = "The person declined; the revocation was not signed or sent.";
  const stop = await confirmed(deps, input.confirmationId, {
    question,
    key,
    tool: "revoke_review",
    again: "the same server and transaction",
    declined,
    choice,
  });
  if (stop) return { ...stop, ...base };
  const answer = await post(
    deps.settings,
    "/buyer-reviews/revoke",
    await signRevocation(
      deps.wallet,
      reviewSiteOf(deps.settings.registryUrl),
      deps.settings.network.chainId,
      listing.id,
      transaction,
    ),
  );
  if (answer.status !== 200) return { status: "refused", message: refusedBy("revocation", answer), ...base };
  return {
    status: "revoked",
    message: `Withdrew your review of ${listing.name} for purchase ${transaction}.`,
    ...base,
    reviewId: answer.body.id,
  };
}
