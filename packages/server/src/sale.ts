// The one paid-call pipeline: whether a call came as MonetizedMCP's make-purchase or as an item's own x402 tool, the
// same steps run here, in the order the call's protocol gives:
// - the x402 binding (an item's own tool): verify the payment and hold its nonce, deliver, and settle only a call
//   whose handler succeeded; a handler that throws, answers an error or nothing settles nothing. An asynchronous
//   item settles when its job's result is ready, and a job that fails or runs past the payment's validity settles
//   nothing. A settlement that fails after delivery withholds the result and is reported to the seller.
// - make-purchase (MonetizedMCP): the product's wire format settles before delivery; a handler that fails after it
//   is a charged failure, quoted by order id and reported to the seller (onChargedFailure), who may refund.
// The tools only translate the answer into their protocol's words (tools.ts).
import { randomBytes } from "node:crypto";
import { formatUsd, usdToUnits } from "@agora-mcp/protocol";
import type { SaleItem, PurchaseContext, PurchaseEvent, ResolvedOptions } from "./config.js";
import type { JobStore } from "./jobs.js";
import type { PaymentGate, RefusalCode, Refused, Settled, VerifiedPayment } from "./payments.js";
import { UNSETTLED_OUTAGE_MESSAGES, type Outage } from "./refusals.js";
import { purchaseReporter } from "./purchase-log.js";

/** Which order a sale runs in: settle before delivery (make-purchase), or only after the tool succeeded (x402). */
export type SaleOrder = "settle-first" | "settle-after-success";

/** What became of a call, after the payment (if any) was taken or verified. */
export type Delivery =
  | { status: "pending"; jobId: string; checkAfterSeconds: number }
  | { status: "delivered"; output: unknown }
  /** `charged`: the payment settled before the failure (make-purchase only). */
  | { status: "failed"; why: string; charged: boolean };

/** `code` says why nothing was delivered: the payment's refusal, or a settlement that failed after the tool ran. */
export type SaleRefusal = {
  ok: false;
  orderId: string;
  code: RefusalCode | "settlement_failed";
  reason: string;
  corrective?: Refused["corrective"];
};
export type SaleResult = SaleRefusal | { ok: true; orderId: string; paid?: Settled; delivery: Delivery };

export type Seller = {
  /**
   * Sells one call of `item`: `payment` is the buyer's signed payment, or null for a free item. A refused payment
   * delivers nothing. In `settle-after-success` order a failed handler costs nothing; in `settle-first` order a
   * settled payment always gets an answer, a failed handler included.
   */
  sell(item: SaleItem, params: Record<string, string>, payment: unknown | null, order: SaleOrder): Promise<SaleResult>;
};

/** What the buyer reads after a failure that cost them nothing. */
export const NOT_CHARGED = "You were not charged.";
/** Seconds kept between a handler's deadline and the payment's expiry, for the settlement to land. */
const SETTLE_SLACK_SECONDS = 10;

function newOrderId(): string {
  return `ord_${randomBytes(12).toString("hex")}`;
}

/** Why a handler's answer is no delivery: it threw, answered an MCP error, or answered nothing. */
function failureOf(output: unknown): string | undefined {
  if (output === undefined || output === null || (typeof output === "string" && output.trim() === ""))
    return "the item answered nothing";
  if (typeof output === "object" && (output as { isError?: unknown }).isError === true) {
    const content = (output as { content?: { type?: string; text?: string }[] }).content;
    const text = Array.isArray(content)
      ? content
          .map((c) => (c?.type === "text" ? c.text : ""))
          .join(" ")
          .trim()
      : "";
    return text ? text.slice(0, 300) : "the item answered an error";
  }
  return undefined;
}

/** A fixed-price item's context: its price cannot be reported. */
const fixedPrice = (item: SaleItem) => () => {
  throw new Error(`"${item.name}" has a fixed price; only a metered item reports its usage`);
};

/** A metered call's usage as its handler reports it (the last report counts), in the token's units. */
function usageMeter(item: SaleItem): { report: (price: number | string) => void; used: () => bigint | undefined } {
  let used: bigint | undefined;
  return {
    report(price) {
      // Money is exact: a bad amount is the handler's failure (nothing settles), never a rounded guess.
      used = usdToUnits(price);
      if (used < 0n) throw new Error(`"${item.name}" reported a negative usage`);
    },
    used: () => used,
  };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message.slice(0, 300) : "the item failed");

/** Runs the handler until `deadlineMs` (epoch ms): its output, or why it is no delivery. */
async function runHandler(
  item: SaleItem,
  params: Record<string, string>,
  context: PurchaseContext,
  deadlineMs?: number,
): Promise<{ output: unknown } | { why: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const work = Promise.resolve().then(() => item.handler(params, context));
    const output =
      deadlineMs === undefined
        ? await work
        : await Promise.race([
            work,
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(new Error("the item did not answer before the payment expired")),
                Math.max(0, deadlineMs - Date.now()),
              );
            }),
          ]);
    const why = failureOf(output);
    return why ? { why } : { output };
  } catch (error) {
    return { why: errorText(error) };
  } finally {
    clearTimeout(timer);
  }
}

export function createSeller({
  options,
  gate,
  jobs,
}: {
  options: ResolvedOptions;
  gate: PaymentGate;
  jobs: JobStore;
}): Seller {
  const report = purchaseReporter(options);
  /** A seller's hook never breaks a sale: what it throws goes to the log. */
  const notify = <T>(hook: ((event: T) => unknown) | undefined, event: T, name: string) => {
    if (!hook) return;
    Promise.resolve()
      .then(() => hook(event))
      .catch((error: unknown) => options.log(`${name} hook failed: ${errorText(error)}`));
  };
  const base = (item: SaleItem, orderId: string) => ({ orderId, itemId: item.id, units: item.units.toString() });

  /** A settlement that failed after the tool ran: logged, reported to the seller, and the result withheld. */
  function unsettled(item: SaleItem, orderId: string, verified: VerifiedPayment, refused: Refused): SaleRefusal {
    const reason =
      refused.code in UNSETTLED_OUTAGE_MESSAGES ? UNSETTLED_OUTAGE_MESSAGES[refused.code as Outage] : refused.reason;
    const event = { ...base(item, orderId), payer: verified.payer, reason };
    options.log(
      `order ${orderId}: ${item.id} was delivered but its payment did not settle; the result was withheld (${reason})`,
    );
    report({ ...event, outcome: "unsettled", charged: false });
    notify(options.onSettlementFailed, event, "onSettlementFailed");
    return {
      ok: false,
      orderId,
      code: "settlement_failed",
      reason: `${reason} ${NOT_CHARGED} The result is withheld; pay again to get it.`,
    };
  }

  /** A failure after the payment settled (make-purchase): quoted by order id and reported to the seller. */
  function chargedFailure(item: SaleItem, orderId: string, paid: Settled, why: string): void {
    const event = { ...base(item, orderId), payer: paid.payer, transaction: paid.transaction, reason: why };
    report({ ...event, outcome: "failed", charged: true });
    notify(options.onChargedFailure, event, "onChargedFailure");
  }

  /** Settle-first delivery (make-purchase, and free items). */
  async function deliverPaid(
    item: SaleItem,
    params: Record<string, string>,
    orderId: string,
    paid: Settled | undefined,
  ): Promise<Delivery> {
    const context: PurchaseContext = {
      orderId,
      itemId: item.id,
      payer: paid?.payer,
      transaction: paid?.transaction,
      reportUsage: fixedPrice(item),
    };
    const event = { ...base(item, orderId), transaction: paid?.transaction, payer: paid?.payer };
    // Only a paid call can become a job: job-status hands the result to the wallet that paid.
    if (item.async && paid) {
      const job = jobs.start(paid.payer as `0x${string}`, item.async.checkAfterSeconds, async () => {
        const ran = await runHandler(item, params, context);
        if ("why" in ran) {
          chargedFailure(item, orderId, paid, ran.why);
          throw new Error(
            `${ran.why}. The payment settled (transaction ${paid.transaction}); quote order ${orderId} to the provider.`,
          );
        }
        report({ ...event, outcome: "delivered" });
        return { toolResult: ran.output, transaction: paid.transaction };
      });
      report({ ...event, outcome: "pending" });
      return { status: "pending", jobId: job.id, checkAfterSeconds: item.async.checkAfterSeconds };
    }
    const started = performance.now();
    const ran = await runHandler(item, params, context);
    if ("why" in ran) {
      if (paid) chargedFailure(item, orderId, paid, ran.why);
      else report({ ...event, outcome: "failed", reason: ran.why, charged: false });
      return { status: "failed", why: ran.why, charged: paid !== undefined };
    }
    report({
      ...event,
      outcome: "delivered",
      timings: { ...paid?.timings, handlerMs: Math.round(performance.now() - started) },
    });
    return { status: "delivered", output: ran.output };
  }

  /** Settle-after-success: the handler first, then the settlement, only if it succeeded. */
  async function deliverThenSettle(
    item: SaleItem,
    params: Record<string, string>,
    orderId: string,
    verified: VerifiedPayment,
  ): Promise<SaleResult> {
    const meter = usageMeter(item);
    const context: PurchaseContext = {
      orderId,
      itemId: item.id,
      payer: verified.payer,
      reportUsage: item.metered ? meter.report : fixedPrice(item),
    };
    // The handler must be done while the authorisation can still be settled.
    const deadlineMs = (verified.validBefore - SETTLE_SLACK_SECONDS) * 1000;
    const event = { ...base(item, orderId), payer: verified.payer };
    if (item.async) {
      const job = jobs.start(verified.payer as `0x${string}`, item.async.checkAfterSeconds, async () => {
        const ran = await runHandler(item, params, context, deadlineMs);
        if ("why" in ran) {
          verified.release();
          report({ ...event, outcome: "failed", reason: ran.why, charged: false });
          throw new Error(`${ran.why}. ${NOT_CHARGED}`);
        }
        const settled = await verified.settle();
        if (!settled.ok) throw new Error(unsettled(item, orderId, verified, settled).reason);
        report({ ...event, outcome: "delivered", transaction: settled.transaction, timings: settled.timings });
        return { toolResult: ran.output, transaction: settled.transaction };
      });
      report({ ...event, outcome: "pending" });
      return {
        ok: true,
        orderId,
        delivery: { status: "pending", jobId: job.id, checkAfterSeconds: item.async.checkAfterSeconds },
      };
    }
    const started = performance.now();
    const ran = await runHandler(item, params, context, deadlineMs);
    const handlerMs = Math.round(performance.now() - started);
    if ("why" in ran) {
      // Nothing was delivered on this payment: its nonce is free again, and nothing is settled.
      verified.release();
      report({ ...event, outcome: "failed", reason: ran.why, charged: false });
      return { ok: true, orderId, delivery: { status: "failed", why: ran.why, charged: false } };
    }
    const settled = await verified.settle(item.metered ? meteredUnits(item, orderId, meter.used()) : item.units);
    if (!settled.ok) return unsettled(item, orderId, verified, settled);
    report({
      ...event,
      ...(item.metered ? { units: settled.units.toString() } : {}),
      outcome: "delivered",
      transaction: settled.transaction,
      timings: { ...settled.timings, handlerMs },
    });
    return { ok: true, orderId, paid: settled, delivery: { status: "delivered", output: ran.output } };
  }

  /** What a metered call settles: its report, never above the signed maximum; nothing reported settles nothing. */
  function meteredUnits(item: SaleItem, orderId: string, used: bigint | undefined): bigint {
    if (used === undefined) {
      options.log(
        `order ${orderId}: metered item ${item.id} reported no usage (context.reportUsage); nothing was settled`,
      );
      return 0n;
    }
    if (used > item.units) {
      options.log(
        `order ${orderId}: metered item ${item.id} reported ${formatUsd(used)}, above its maximum of ${formatUsd(item.units)}; the maximum was settled`,
      );
      return item.units;
    }
    return used;
  }

  const refusedEvent = (item: SaleItem, orderId: string, reason: string): PurchaseEvent => ({
    ...base(item, orderId),
    outcome: "refused",
    reason,
  });

  return {
    async sell(item, params, payment, order) {
      const orderId = newOrderId();
      if (payment === null) return { ok: true, orderId, delivery: await deliverPaid(item, params, orderId, undefined) };
      if (order === "settle-after-success") {
        const verified = await gate.verify(item, payment);
        if (!verified.ok) {
          report(refusedEvent(item, orderId, verified.reason));
          return {
            ok: false,
            orderId,
            code: verified.code,
            reason: verified.reason,
            ...(verified.corrective ? { corrective: verified.corrective } : {}),
          };
        }
        return deliverThenSettle(item, params, orderId, verified);
      }
      const charged = await gate.charge(item, payment);
      if (!charged.ok) {
        report(refusedEvent(item, orderId, charged.reason));
        return { ok: false, orderId, code: charged.code, reason: charged.reason };
      }
      return { ok: true, orderId, paid: charged, delivery: await deliverPaid(item, params, orderId, charged) };
    },
  };
}
