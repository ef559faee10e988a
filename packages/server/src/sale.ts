// The one paid-call pipeline: whether a call came as MonetizedMCP's make-purchase or as an item's own x402 tool, the
// same steps run here, in order: take the payment (verify, then settle: PaymentGate), then deliver (at once, or as a
// job the buyer collects with job-status), reporting each outcome once. The tools only translate the answer into
// their protocol's words (tools.ts).
import { randomBytes } from "node:crypto";
import type { CatalogueItem, PurchaseContext, ResolvedOptions } from "./config.js";
import type { JobStore } from "./jobs.js";
import type { PaymentGate, Settled } from "./payments.js";
import { purchaseReporter } from "./purchase-log.js";

/** What became of a call, after the payment (if any) settled. */
export type Delivery =
  | { status: "pending"; jobId: string; checkAfterSeconds: number }
  | { status: "delivered"; output: unknown }
  | { status: "failed"; why: string };

export type SaleResult =
  | { ok: false; orderId: string; reason: string }
  | { ok: true; orderId: string; paid?: Settled; delivery: Delivery };

export type Seller = {
  /**
   * Sells one call of `item`: `payment` is the buyer's signed payment, or null for a free item. A refused payment
   * delivers nothing; a settled one always gets an answer, a failed handler included.
   */
  sell(item: CatalogueItem, params: Record<string, string>, payment: unknown | null): Promise<SaleResult>;
};

function newOrderId(): string {
  return `ord_${randomBytes(12).toString("hex")}`;
}

export function createSeller({ options, gate, jobs }: { options: ResolvedOptions; gate: PaymentGate; jobs: JobStore }): Seller {
  const report = purchaseReporter(options);

  async function deliver(item: CatalogueItem, params: Record<string, string>, orderId: string, paid: Settled | undefined): Promise<Delivery> {
    const units = item.units.toString();
    const context: PurchaseContext = { orderId, itemId: item.id, payer: paid?.payer, transaction: paid?.transaction };
    const event = { orderId, itemId: item.id, units, transaction: paid?.transaction, payer: paid?.payer };
    // Only a paid call can become a job: job-status hands the result to the wallet that paid.
    if (item.async && paid) {
      const job = jobs.start(paid.payer as `0x${string}`, item.async.checkAfterSeconds, async () => item.handler(params, context));
      report({ ...event, outcome: "pending" });
      return { status: "pending", jobId: job.id, checkAfterSeconds: item.async.checkAfterSeconds };
    }
    try {
      const started = performance.now();
      const output = await item.handler(params, context);
      report({ ...event, outcome: "delivered", timings: { ...paid?.timings, handlerMs: Math.round(performance.now() - started) } });
      return { status: "delivered", output };
    } catch (error) {
      const why = error instanceof Error ? error.message.slice(0, 300) : "the item failed";
      report({ ...event, outcome: "failed", reason: why });
      return { status: "failed", why };
    }
  }

  return {
    async sell(item, params, payment) {
      const orderId = newOrderId();
      if (payment === null) return { ok: true, orderId, delivery: await deliver(item, params, orderId, undefined) };
      const charged = await gate.charge(item, payment);
      if (!charged.ok) {
        report({ orderId, itemId: item.id, units: item.units.toString(), outcome: "refused", reason: charged.reason });
        return { ok: false, orderId, reason: charged.reason };
      }
      return { ok: true, orderId, paid: charged, delivery: await deliver(item, params, orderId, charged) };
    },
  };
}
