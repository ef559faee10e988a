// Buyers' signed delivery receipts: stored once per sale (the unique sale key decides a race), counted in the
// listing's delivery evidence (deliveryCountsFact in ./test-purchases).
import { and, eq } from "drizzle-orm";
import { buyerReceipts, type BuyerReceiptRow } from "../schema";
import type { Db } from "../types";

type NewBuyerReceipt = Omit<typeof buyerReceipts.$inferInsert, "id" | "createdAt">;

/** Stores a receipt; null when the sale already has one (a concurrent duplicate loses here). */
export async function insertBuyerReceipt(db: Db, receipt: NewBuyerReceipt): Promise<BuyerReceiptRow | null> {
  const [row] = await db
    .insert(buyerReceipts)
    .values(receipt)
    .onConflictDoNothing({ target: [buyerReceipts.chainId, buyerReceipts.txHash, buyerReceipts.logIndex] })
    .returning();
  return row ?? null;
}

export async function findBuyerReceiptsBySale(
  db: Db,
  chainId: number,
  txHash: string,
  logIndex?: number,
): Promise<BuyerReceiptRow[]> {
  return db
    .select()
    .from(buyerReceipts)
    .where(
      and(
        eq(buyerReceipts.chainId, chainId),
        eq(buyerReceipts.txHash, txHash.toLowerCase()),
        logIndex === undefined ? undefined : eq(buyerReceipts.logIndex, logIndex),
      ),
    );
}
