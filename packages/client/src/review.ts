// Reviewing a server this wallet bought from: the purchase is found in the ledger (only a paid one counts),
// the person confirms the text when elicitation is on, the wallet signs the review (EIP-712, the shared
// typed data of @agora-mcp/protocol) and the site checks it against the chain before it shows it.
import { BUYER_REVIEW_TYPES, buyerReviewDomain, taskRefOf } from "@agora-mcp/protocol";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { askPerson, supportsElicitation, type Confirmations } from "./confirm.js";
import type { Ledger, LedgerEntry } from "./ledger.js";
import { findListing, registryApiBase } from "./registry.js";
import type { Settings } from "./settings.js";
import type { Wallet } from "./wallet.js";

export type ReviewInput = { server: string; rating: number; text: string; transaction?: string; confirmationId?: string };

export type ReviewOutcome = {
  status: "posted" | "confirmation-required" | "declined" | "refused";
  message: string;
  server?: string;
  transaction?: string;
  reviewId?: string;
  confirmationId?: string;
};

export type ReviewDeps = { settings: Settings; wallet: Wallet; ledger: Ledger; confirmations: Confirmations; mcp: Server };

const PAID = new Set(["paid", "job-pending", "job-done"]);
const SIGNATURE_VALID_SECONDS = 600;
const POST_TIMEOUT_MS = 30_000;

/** The paid purchase to review: the named transaction, else the latest paid purchase from that server. */
function purchaseToReview(ledger: Ledger, serverUrl: string, transaction: string | undefined): LedgerEntry | undefined {
  const paid = ledger.attempts().filter((a) => PAID.has(a.status) && a.transaction && a.serverUrl === serverUrl);
  if (transaction) return paid.find((a) => a.transaction!.toLowerCase() === transaction.toLowerCase());
  return paid.at(-1);
}

export async function review(input: ReviewInput, deps: ReviewDeps): Promise<ReviewOutcome> {
  const { settings, wallet, ledger } = deps;
  const listing = await findListing(settings.registryUrl, input.server);
  const bought = purchaseToReview(ledger, listing.serverUrl, input.transaction);
  if (!bought) {
    const which = input.transaction ? `transaction ${input.transaction.slice(0, 80)}` : "any purchase";
    return { status: "refused", message: `This wallet's ledger has no paid purchase from ${listing.name} (${which}); only a wallet that paid can review. Nothing was signed.`, server: listing.name };
  }
  const transaction = bought.transaction!;
  const base = { server: listing.name, transaction };
  if (settings.elicitation) {
    const question = `Post this review of ${listing.name} from wallet ${wallet.address} (purchase ${transaction})? ${input.rating} of 5 stars: "${input.text}"`;
    const key = JSON.stringify([listing.id, transaction, input.rating, input.text]);
    if (supportsElicitation(deps.mcp)) {
      if ((await askPerson(deps.mcp, question, { title: "Post", description: "Post this review, signed by this wallet" })) !== "accepted") {
        return { status: "declined", message: "The person declined; the review was not signed or sent.", ...base };
      }
    } else if (!input.confirmationId || !deps.confirmations.redeem(input.confirmationId, key)) {
      const { confirmationId, expiresAt } = deps.confirmations.issue(key);
      return {
        status: "confirmation-required",
        message: `${question}\nAsk the person; if they agree, call review again with the same rating and text and confirmationId "${confirmationId}" (valid until ${expiresAt}).`,
        ...base,
        confirmationId,
      };
    }
  }
  const issuedAt = Math.floor(Date.now() / 1000);
  const message = {
    listing: listing.id,
    taskRef: taskRefOf(settings.network.chainId, transaction),
    logIndex: -1,
    reviewer: wallet.address,
    rating: input.rating,
    text: input.text,
    issuedAt,
    expiresAt: issuedAt + SIGNATURE_VALID_SECONDS,
  };
  const domain = buyerReviewDomain(settings.network.chainId);
  const signature = await wallet.account.signTypedData({
    domain,
    types: BUYER_REVIEW_TYPES,
    primaryType: "Review",
    message: { ...message, logIndex: BigInt(message.logIndex), issuedAt: BigInt(issuedAt), expiresAt: BigInt(message.expiresAt) },
  });
  const response = await fetch(`${registryApiBase(settings.registryUrl)}/buyer-reviews`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ domain, message, signature }),
    signal: AbortSignal.timeout(POST_TIMEOUT_MS),
  });
  const body = (await response.json().catch(() => ({}))) as { message?: string; review?: { id?: string } };
  if (response.status !== 201) {
    return { status: "refused", message: `The registry refused the review (${response.status}): ${String(body.message ?? "no reason given").slice(0, 300)}`, ...base };
  }
  return { status: "posted", message: `Posted your ${input.rating}-star review of ${listing.name}, verified against purchase ${transaction}.`, ...base, reviewId: body.review?.id };
}
