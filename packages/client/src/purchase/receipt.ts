// The receipt: what the server answered (a make-purchase answer, or a paid tool's result in its style), checked
// against the chain (a purchase counts as paid only when exactly the price went to the payee), written to the
// ledger as the attempt's last state (a refusal releases its reservation). What the money did is decided by the
// answer's code and the chain, never by the words of either.
import {
  formatUsd,
  readPaymentAsk,
  readPaymentAskError,
  readPurchaseResult,
  readSettlement,
  type PaymentAsk,
} from "@agora-mcp/protocol";
import { textOf } from "../connections.js";
import { channelHolds, followChannelAnswer } from "./channel.js";
import type {
  Answer,
  Context,
  OutcomeCode,
  PaymentProof,
  Priced,
  PricedOffer,
  PurchaseOutcome,
  Sent,
  ToolOffer,
} from "./types.js";

/** The paid call as the receipt settles it: the ledger's attempt, the signed payment's proof, how long it took. */
type Attempt = { attemptId: string; proof: PaymentProof; answeredInMs: number };

const callFailed = (error: unknown): Answer => ({
  ok: false,
  code: "no_answer",
  reason: `the call failed: ${(error as Error).message.split("\n")[0]}`,
});

/** make-purchase's answer (readPurchaseResult: a MakePurchaseAnswer). */
function readMakePurchase(sent: Sent): Answer {
  if (!sent.ok) return callFailed(sent.error);
  const outcome = readPurchaseResult(sent.result);
  if (!outcome.ok) return { ok: false, code: "refused", reason: outcome.reason };
  return {
    ok: true,
    transaction: outcome.transaction,
    result: outcome.toolResult,
    orderId: outcome.orderId,
    jobId: outcome.jobId,
    checkAfterSeconds: outcome.checkAfterSeconds,
  };
}

/** Why a paid retry's answer is no delivery, in words: another request for payment (never paid twice), or an error. */
function askedAgain(ask: PaymentAsk): string {
  const error = ask.required.error ? `: "${ask.required.error.slice(0, 200)}"` : "";
  return `it answered with another request for payment instead of the result${error} (the wallet does not sign twice)`;
}

/**
 * A paid tool's answer to its retried call: the settlement (and for a metered payment what it moved), or why nothing
 * was delivered. Another request for payment (a tool result, or x402's JSON-RPC error 402) is never paid twice; it
 * is handed on (`again`), since a payment channel's carries the server's count.
 */
function readPaidTool(offer: ToolOffer, sent: Sent): { answer: Answer; again?: PaymentAsk } {
  if (!sent.ok) {
    const again = readPaymentAskError(sent.error);
    return again
      ? { answer: { ok: false, code: "refused", reason: askedAgain(again) }, again }
      : { answer: callFailed(sent.error) };
  }
  const paid = sent.result;
  const again = readPaymentAsk(paid, offer.ask.style);
  if (again) return { answer: { ok: false, code: "refused", reason: askedAgain(again) }, again };
  if (paid.isError)
    return { answer: { ok: false, code: "tool_failed", reason: textOf(paid).slice(0, 300) || "(no text)" } };
  const settlement = readSettlement(paid._meta);
  if (!settlement?.success)
    return {
      answer: {
        ok: false,
        code: "no_settlement",
        reason: settlement?.errorReason
          ? `its settlement failed: ${settlement.errorReason}`
          : "the answer carries no successful settlement",
      },
    };
  // A metered call that used nothing settles with no transaction and an amount of 0.
  const units = settlement.amount !== undefined ? BigInt(settlement.amount) : undefined;
  const answer: Answer = {
    ok: true,
    transaction: settlement.transaction || undefined,
    units,
    result: textOf(paid),
    ...(settlement.extra ? { extra: settlement.extra } : {}),
  };
  return { answer };
}

/** What the server answered to the paid call, by how it was paid; a channel's count follows the answer. */
async function readAnswer(ctx: Context, offer: PricedOffer, sent: Sent): Promise<Answer> {
  if (offer.via === "make-purchase") return readMakePurchase(sent);
  const { answer, again } = readPaidTool(offer, sent);
  if (offer.via !== "channel") return answer;
  return followChannelAnswer(ctx, offer, answer, again).catch(callFailed);
}

/**
 * Whether the chain shows the signed payment used (money moved), by the kind of signature it was. A channel voucher
 * moves nothing when it is sent: a server that refused it or whose tool failed did not count it (the next voucher
 * signs the same total again); one that did not answer may have, which the chain cannot tell yet.
 */
function paymentUsed(ctx: Context, proof: PaymentProof, code?: Unanswered["code"]): Promise<boolean | undefined> {
  const { chain, wallet } = ctx.deps;
  if (proof.kind === "voucher") return Promise.resolve(code === "no_answer" ? undefined : false);
  const used =
    proof.kind === "eip3009"
      ? chain.authorizationUsed(wallet.address, proof.nonce)
      : chain.permit2NonceUsed(wallet.address, proof.nonce);
  return used.catch(() => undefined);
}
type Unanswered = Extract<Answer, { ok: false }>;

/** The outcome of a paid call that delivered nothing and whose payment the chain shows unused. */
const UNUSED_CODE: Record<Unanswered["code"], OutcomeCode> = {
  tool_failed: "tool_failed_uncharged",
  refused: "payment_refused",
  no_answer: "payment_refused",
  no_settlement: "payment_refused",
};

/** The server answered no (or nothing): whether the signed authorisation was used decides refused or disputed. */
async function unanswered(
  ctx: Context,
  priced: Priced,
  attempt: Attempt,
  answer: Unanswered,
  paid: Partial<PurchaseOutcome>,
): Promise<PurchaseOutcome> {
  const { ledger } = ctx.deps;
  const label = ctx.server.label;
  const { reason, code } = answer;
  const moved = await paymentUsed(ctx, attempt.proof, code);
  if (moved === false) {
    await ledger.update(attempt.attemptId, { status: "refused", code, note: reason.slice(0, 300) });
    const message =
      code === "tool_failed"
        ? `${label}'s tool failed: ${reason} The payment was not used; nothing was paid. You were not charged.`
        : `${label} refused the purchase: ${reason} The payment was not used; nothing was paid.`;
    return { status: "failed", code: UNUSED_CODE[code], message, signed: true, ...paid };
  }
  await ledger.update(attempt.attemptId, {
    status: moved ? "disputed" : "unknown",
    code: moved ? code : "unverified",
    note: reason.slice(0, 300),
  });
  const message = moved
    ? `${label} took the payment of ${formatUsd(priced.units)} but delivered nothing: ${reason} Quote the payee ${priced.payTo} to the provider.`
    : `${label} refused the purchase (${reason}) and the chain could not be read to tell whether the payment was used.`;
  return { status: "disputed", code: moved ? "charged_failure" : "unverified", message, signed: true, ...paid };
}

/**
 * A metered call that used nothing: delivered, no transaction, nothing moved. The signed maximum stays unspent
 * until its deadline; the chain is asked so a server that said 0 and took money is caught.
 */
async function usedNothing(
  ctx: Context,
  priced: Priced,
  attempt: Attempt,
  paid: Partial<PurchaseOutcome>,
  result: unknown,
): Promise<PurchaseOutcome> {
  const moved = await paymentUsed(ctx, attempt.proof);
  if (moved !== false) {
    await ledger(ctx).update(attempt.attemptId, {
      status: moved ? "disputed" : "unknown",
      code: "unverified",
      note: "said it used nothing",
    });
    return {
      status: "disputed",
      code: "unverified",
      message: `${ctx.server.label} said the call used nothing, but the chain ${moved ? "shows the payment used" : "could not be read"}.`,
      ...paid,
      signed: true,
      result,
    };
  }
  await ledger(ctx).update(attempt.attemptId, { status: "paid", units: "0", note: "metered: used nothing" });
  const message = `${ctx.server.label} delivered "${priced.name}" and the call used nothing of the ${formatUsd(priced.units)} maximum: nothing was paid (metered).`;
  return {
    status: "delivered",
    code: "delivered",
    message,
    ...paid,
    signed: true,
    priceUsd: formatUsd(0n),
    maxPriceUsd: formatUsd(priced.units),
    result,
  };
}

const ledger = (ctx: Context) => ctx.deps.ledger;

export async function receipt(
  ctx: Context,
  offer: PricedOffer,
  sent: Sent,
  attempt: Pick<Attempt, "attemptId" | "proof">,
): Promise<PurchaseOutcome> {
  const answer = await readAnswer(ctx, offer, sent);
  return settle(ctx, offer, { ...attempt, answeredInMs: sent.answeredInMs }, answer);
}

/** What the answer and the chain together say the purchase came to. */
async function settle(ctx: Context, priced: PricedOffer, attempt: Attempt, answer: Answer): Promise<PurchaseOutcome> {
  const { ledger, chain, wallet } = ctx.deps;
  const label = ctx.server.label;
  const priceUsd = formatUsd(priced.units);
  const paid = { ...ctx.at, priceUsd, payTo: priced.payTo, signed: true, answeredInMs: attempt.answeredInMs };
  if (!answer.ok) return unanswered(ctx, priced, attempt, answer, paid);
  if (priced.via === "channel") return channelReceipt(ctx, priced, attempt, paid, answer);
  if (!answer.transaction && priced.metered && answer.units === 0n)
    return usedNothing(ctx, priced, attempt, paid, answer.result);
  if (!answer.transaction) {
    const moved = await paymentUsed(ctx, attempt.proof);
    await ledger.update(attempt.attemptId, {
      status: moved === false ? "refused" : "disputed",
      code: "no_settlement",
      note: "no transaction in the answer",
    });
    const message = `${label} answered without a settlement transaction, so the payment cannot be checked${moved === false ? " (it was not used: nothing was paid)" : ""}.`;
    return { status: "disputed", code: "unverified", message, ...paid, result: answer.result };
  }
  const transaction = answer.transaction;
  const check = await chain.checkPayment({
    transaction,
    from: wallet.address,
    payTo: priced.payTo,
    units: priced.units,
    upTo: priced.metered,
  });
  if (!check.ok) {
    await ledger.update(attempt.attemptId, {
      status: "disputed",
      code: "unverified",
      transaction,
      note: check.reason.slice(0, 300),
    });
    return {
      status: "disputed",
      code: "unverified",
      message: `${label}'s answer does not match the chain: ${check.reason}. Not counted as a good purchase.`,
      ...paid,
      transaction,
      result: answer.result,
    };
  }
  if (answer.jobId) {
    const checkAfterSeconds = answer.checkAfterSeconds ?? 60;
    const checkAfter = new Date(Date.now() + checkAfterSeconds * 1000).toISOString();
    await ledger.update(attempt.attemptId, {
      status: "job-pending",
      transaction,
      jobId: answer.jobId,
      checkAfter,
      orderId: answer.orderId,
    });
    const message = `Paid ${priceUsd} (transaction ${transaction}). "${priced.name}" is being prepared: call check_job with jobId "${answer.jobId}" after ${checkAfter} (about ${checkAfterSeconds} s).`;
    return {
      status: "job-pending",
      code: "job_pending",
      message,
      ...paid,
      transaction,
      orderId: answer.orderId,
      jobId: answer.jobId,
      checkAfterSeconds,
    };
  }
  if (priced.metered) {
    // What the chain shows moved is what this purchase cost; the ledger (and every budget) counts that, not the maximum.
    await ledger.update(attempt.attemptId, {
      status: "paid",
      transaction,
      orderId: answer.orderId,
      units: check.moved.toString(),
    });
    const message = `Paid ${formatUsd(check.moved)} of up to ${priceUsd} to ${label} for "${priced.name}" (metered: transaction ${transaction}, checked on chain, settled after the tool succeeded).`;
    return {
      status: "delivered",
      code: "delivered",
      message,
      ...paid,
      priceUsd: formatUsd(check.moved),
      maxPriceUsd: priceUsd,
      transaction,
      orderId: answer.orderId,
      result: answer.result,
    };
  }
  await ledger.update(attempt.attemptId, { status: "paid", transaction, orderId: answer.orderId });
  const order = priced.order === "after-success" ? ", settled after the tool succeeded" : "";
  return {
    status: "delivered",
    code: "delivered",
    message: `Paid ${priceUsd} to ${label} for "${priced.name}" (transaction ${transaction}, checked on chain${order}).`,
    ...paid,
    transaction,
    orderId: answer.orderId,
    result: answer.result,
  };
}

/**
 * A call paid on a payment channel: counted as paid at the price (every budget counts it now). A call that deposited
 * is checked on chain: the channel must hold at least what was deposited. A voucher moves nothing until the server
 * claims it with others, so there is no transaction to check; the channel never pays out more than the vouchers signed.
 */
async function channelReceipt(
  ctx: Context,
  priced: Extract<PricedOffer, { via: "channel" }>,
  attempt: Attempt,
  paid: Partial<PurchaseOutcome>,
  answer: Extract<Answer, { ok: true }>,
): Promise<PurchaseOutcome> {
  const terms = priced.channel;
  const label = ctx.server.label;
  const price = formatUsd(priced.units);
  if (terms.deposit !== undefined) {
    const held = await channelHolds(ctx.deps, terms.channelId);
    if (held === undefined || held < terms.balance + terms.deposit) {
      await ledger(ctx).update(attempt.attemptId, {
        status: "disputed",
        code: "unverified",
        transaction: answer.transaction,
        note: "the channel does not hold the deposit",
      });
      const shows = held === undefined ? "could not be read" : `shows the channel holding ${formatUsd(held)}`;
      return {
        status: "disputed",
        code: "unverified",
        message: `${label} answered, but the chain ${shows}, not the ${formatUsd(terms.balance + terms.deposit)} deposited. Not counted as a good purchase.`,
        ...paid,
        signed: true,
        transaction: answer.transaction,
        result: answer.result,
      };
    }
  }
  const remaining = terms.balance + (terms.deposit ?? 0n) - terms.charged - priced.units;
  const opened =
    terms.deposit === undefined
      ? ""
      : ` The channel was ${terms.balance > 0n ? "topped up" : "opened"} with a deposit of ${formatUsd(terms.deposit)} (transaction ${answer.transaction}).`;
  await ledger(ctx).update(attempt.attemptId, {
    status: "paid",
    ...(answer.transaction ? { transaction: answer.transaction } : {}),
    note: terms.deposit === undefined ? "channel voucher" : `channel deposit ${terms.deposit}`,
  });
  const message = `Paid ${price} to ${label} for "${priced.name}" by a voucher on your payment channel (settled after the tool succeeded; the server claims vouchers in batches).${opened} The channel holds ${formatUsd(remaining)} more.`;
  return {
    status: "delivered",
    code: "delivered",
    message,
    ...paid,
    signed: true,
    ...(answer.transaction ? { transaction: answer.transaction } : {}),
    result: answer.result,
  };
}
