// Accepting a buyer's signed delivery receipt: the wallet that paid a sale says whether the call delivered. It passes
// the checks a review passes (signature, listing, the sale on chain paid by the signer at a listed price) and is
// stored once per sale; the listing's delivery evidence counts it.
import type { SignedBuyerReceipt } from "@agora-mcp/protocol";
import { findBuyerReceiptsBySale, insertBuyerReceipt } from "@/db/queries/buyer-receipts";
import type { BuyerReceiptRow } from "@/db/schema";
import type { Db } from "@/db/types";
import { ApiError } from "@/lib/errors";
import { limits } from "@/lib/rate-limit";
import { saleColumns, verifiedSale } from "./submit";

const RECEIPT = { verb: "send a receipt for", capitalized: "Send a receipt for" };

function duplicate(txHash: string) {
  return new ApiError(409, `This sale (transaction ${txHash}) already has a delivery receipt; a sale has one.`);
}

/** `site`: this deployment's origin, which the signed message must name. */
export async function acceptBuyerReceipt(
  db: Db,
  signed: SignedBuyerReceipt,
  site: string,
  now = new Date(),
): Promise<BuyerReceiptRow> {
  const signing = { primaryType: "Receipt" as const, limit: limits.buyerReceiptsPerWallet, site, now };
  const verified = await verifiedSale(
    db,
    signed,
    signing,
    RECEIPT,
    (chainId, txHash, logIndex) => findBuyerReceiptsBySale(db, chainId, txHash, logIndex),
    duplicate,
  );
  const stored = await insertBuyerReceipt(db, {
    ...saleColumns(verified, signed),
    delivered: signed.message.delivered,
  });
  if (!stored) throw duplicate(verified.txHash);
  return stored;
}
