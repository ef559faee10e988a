// The delivery receipt: after a paid call whose payment is on chain (the answer named its settlement transaction,
// checked against the chain; for a charged failure, the transaction that used the signed authorisation), the wallet tells the registry it buys through, signed (EIP-712 `Receipt`), whether the
// call delivered. The registry checks the sale on chain and counts the receipt in the listing's delivery evidence.
// It runs in the background: it never fails or delays the purchase's answer, and a registry that refuses or cannot
// be reached costs nothing. It reveals nothing beyond the payment the chain already shows and whether it delivered.
import { reviewSiteOf, type SignedBuyerReceipt } from "@agora-mcp/protocol";
import { findListing } from "../registry.js";
import { messageBase, post, signed } from "../review.js";
import type { Settings } from "../settings.js";
import type { Wallet } from "../wallet.js";
import type { Context, PaymentProof, Priced, PurchaseOutcome } from "./types.js";

/** Tries at most this many times: a sale the registry does not count as confirmed yet is sent again later. */
const ATTEMPTS = 4;
/** The longest wait between tries a registry's Retry-After can ask for. */
const MAX_WAIT_SECONDS = 60;

type Receipt = { transaction: string; delivered: boolean };

/**
 * What the receipt says of a purchase, or null when it gets none (nothing on chain to point at, or not over yet). A
 * charged failure's answer names no transaction: the chain is asked which one used the signed authorisation.
 */
async function receiptOf(
  ctx: Context,
  priced: Priced,
  outcome: PurchaseOutcome,
  proof: PaymentProof,
): Promise<Receipt | null> {
  // A channel's transaction is its deposit, not a sale to the payee; a job has not delivered yet.
  if (priced.channel) return null;
  if (outcome.code === "delivered")
    return outcome.transaction ? { transaction: outcome.transaction, delivered: true } : null;
  if (outcome.code !== "charged_failure") return null;
  if (outcome.transaction) return { transaction: outcome.transaction, delivered: false };
  const find = ctx.deps.chain.authorizationTransaction;
  if (proof.kind !== "eip3009" || !find) return null;
  const transaction = await find(ctx.deps.wallet.address, proof.nonce);
  return transaction ? { transaction, delivered: false } : null;
}

/** The signed body of POST /buyer-reviews/receipts for this wallet's purchase `transaction` of listing `listingId`. */
export async function signReceipt(
  wallet: Wallet,
  site: string,
  chainId: number,
  listingId: string,
  transaction: string,
  delivered: boolean,
  now = Date.now(),
): Promise<SignedBuyerReceipt> {
  return signed(wallet, chainId, "Receipt", {
    ...messageBase(wallet, site, chainId, listingId, transaction, now),
    delivered,
  });
}

const sleep = (seconds: number) =>
  new Promise<void>((resolve) => {
    // Unreferenced: a wallet that is closing does not wait for a receipt.
    setTimeout(resolve, seconds * 1000).unref?.();
  });

/** Signs and posts one receipt, trying again while the registry says when to (never throws past its caller's catch). */
async function postReceipt(settings: Settings, wallet: Wallet, listingId: string, receipt: Receipt): Promise<void> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    // Signed again each try: a signature is valid for minutes only.
    const body = await signReceipt(
      wallet,
      reviewSiteOf(settings.registryUrl),
      settings.network.chainId,
      listingId,
      receipt.transaction,
      receipt.delivered,
    );
    const answer = await post(settings, "/buyer-reviews/receipts", body);
    // Not confirmed deep enough yet, or the registry cannot read the chain now: it says when to come back.
    const retryAfter = Number(answer.headers?.get("retry-after"));
    if ((answer.status !== 409 && answer.status !== 503) || !Number.isFinite(retryAfter) || retryAfter <= 0) return;
    if (attempt < ATTEMPTS) await sleep(Math.min(retryAfter, MAX_WAIT_SECONDS));
  }
}

async function sendReceipt(
  ctx: Context,
  listingId: string,
  priced: Priced,
  outcome: PurchaseOutcome,
  proof: PaymentProof,
): Promise<void> {
  const receipt = await receiptOf(ctx, priced, outcome, proof);
  if (receipt) await postReceipt(ctx.deps.settings, ctx.deps.wallet, listingId, receipt);
}

const sends = (settings: Settings) => settings.deliveryReceipts === true && Boolean(settings.registryUrl);

/**
 * Sends the purchase's receipt in the background when the wallet sends receipts (AGORA_DELIVERY_RECEIPTS), bought a
 * registry listing through that registry, and the outcome points at a payment on chain. Returns at once.
 */
export function sendDeliveryReceipt(ctx: Context, priced: Priced, outcome: PurchaseOutcome, proof: PaymentProof): void {
  const listingId = ctx.server.listingId;
  if (!sends(ctx.deps.settings) || !listingId) return;
  void sendReceipt(ctx, listingId, priced, outcome, proof).catch(() => undefined);
}

/**
 * An asynchronous purchase's receipt, once its job is done (its payment was checked on chain when it was bought):
 * the registry's listing of the server is looked up by its URL. In the background, as after a purchase.
 */
export function sendJobReceipt(
  settings: Settings,
  wallet: Wallet,
  job: { serverUrl: string; transaction: string },
): void {
  if (!sends(settings)) return;
  const send = async () => {
    const listing = await findListing(settings.registryUrl, job.serverUrl);
    await postReceipt(settings, wallet, listing.id, { transaction: job.transaction, delivered: true });
  };
  void send().catch(() => undefined);
}
