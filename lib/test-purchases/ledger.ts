// The agent client's purchase ledger, kept in the site's database for one listing's test purchase: the
// reservation under the day's budget is a row written before anything is signed (db/queries/test-purchases.ts).
import { CapExceeded, type BudgetLedger, type LedgerEntry } from "@agora-mcp/client";
import { recordTestPurchaseMoney, reserveTestPurchase, spentToday } from "@/db/queries/test-purchases";
import type { Db } from "@/db/types";

/**
 * What a purchase's new state means for the site's money, read from its status and code only (the note is words for
 * people). A call that failed without the server's answer (a timeout, a cut connection) left a signed authorisation
 * the server may still settle until it expires: its amount stays reserved as unknown. So does a refusal the server
 * answered: "unused" was true when the chain was asked, but the server holds the signed authorisation and can still
 * settle it. Only a purchase that was never signed gives its amount back.
 */
export function moneyOfChange(change: Pick<LedgerEntry, "status" | "code">): { money: string; release: boolean } {
  const unanswered = change.status === "refused" && change.code === "no_answer";
  return {
    money: unanswered ? "unknown" : change.status,
    release: change.status === "refused" && change.code === "signing_failed",
  };
}

export class DatabaseLedger implements BudgetLedger {
  readonly kind = "budget";
  /** The row the purchase reserved, once it has. */
  reservedId: string | null = null;
  /** The last word on its money. */
  money: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly listingId: string,
    private readonly network: string,
    /** The paying wallet: its own daily budget, not one shared with every key the site has had. */
    private readonly wallet: string,
  ) {}

  spentToday(): Promise<bigint> {
    return spentToday(this.db, this.wallet);
  }

  async reserve(entry: Omit<LedgerEntry, "id" | "time" | "status">, capUnits: bigint): Promise<{ id: string }> {
    const reserved = await reserveTestPurchase(
      this.db,
      {
        listingId: this.listingId,
        item: entry.item,
        network: this.network,
        payTo: entry.payTo ?? null,
        units: BigInt(entry.units),
        wallet: this.wallet,
      },
      capUnits,
    );
    if ("overBudget" in reserved) throw new CapExceeded(reserved.spentUnits, capUnits);
    this.reservedId = reserved.id;
    return reserved;
  }

  async update(
    id: string,
    change: Partial<Omit<LedgerEntry, "id">> & { status: LedgerEntry["status"] },
  ): Promise<void> {
    const { money, release } = moneyOfChange(change);
    this.money = money;
    // A metered purchase's ledger update says what moved (change.units): the row and the day's budget keep that.
    const settledUnits = change.status === "paid" && change.units !== undefined ? BigInt(change.units) : undefined;
    await recordTestPurchaseMoney(this.db, id, {
      money,
      transaction: change.transaction,
      note: change.note,
      release,
      ...(settledUnits !== undefined ? { settledUnits } : {}),
    });
  }

  /** Free items and declines: the run records the purchase itself. */
  async append(): Promise<void> {}
}
