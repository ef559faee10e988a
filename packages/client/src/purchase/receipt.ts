// The receipt: what the server answered, checked against the chain (a purchase counts as paid only when exactly the
// price went to the payee), written to the ledger as the attempt's last state (a refusal releases its reservation).
// What the money did is decided by the answer's code and the chain, never by the words of either.
import { formatUsd } from "@agora-mcp/protocol";
import type { Answer, Context, OutcomeCode, Priced, PurchaseOutcome } from "./types.js";

type Sent = { attemptId: string; nonce: `0x${string}`; answer: Answer; answeredInMs: number };
type Unanswered = Extract<Answer, { ok: false }>;

/** The outcome of a paid call that delivered nothing and whose payment the chain shows unused. */
const UNUSED_CODE: Record<Unanswered["code"], OutcomeCode> = {
  tool_failed: "tool_failed_uncharged",
  refused: "payment_refused",
  no_answer: "payment_refused",
  no_settlement: "payment_refused",
};

/** The server answered no (or nothing): whether the signed authorisation was used decides refused or disputed. */
async function unanswered(ctx: Context, priced: Priced, sent: Sent, answer: Unanswered, paid: Partial<PurchaseOutcome>): Promise<PurchaseOutcome> {
  const { ledger, chain, wallet } = ctx.deps;
  const label = ctx.server.label;
  const { reason, code } = answer;
  const moved = await chain.authorizationUsed(wallet.address, sent.nonce).catch(() => undefined);
  if (moved === false) {
    await ledger.update(sent.attemptId, { status: "refused", code, note: reason.slice(0, 300) });
    const message =
      code === "tool_failed"
        ? `${label}'s tool failed: ${reason} The payment was not used; nothing was paid. You were not charged.`
        : `${label} refused the purchase: ${reason} The payment was not used; nothing was paid.`;
    return { status: "failed", code: UNUSED_CODE[code], message, signed: true, ...paid };
  }
  await ledger.update(sent.attemptId, { status: moved ? "disputed" : "unknown", code: moved ? code : "unverified", note: reason.slice(0, 300) });
  const message = moved
    ? `${label} took the payment of ${formatUsd(priced.units)} but delivered nothing: ${reason} Quote the payee ${priced.payTo} to the provider.`
    : `${label} refused the purchase (${reason}) and the chain could not be read to tell whether the payment was used.`;
  return { status: "disputed", code: moved ? "charged_failure" : "unverified", message, signed: true, ...paid };
}

export async function receipt(ctx: Context, priced: Priced, sent: Sent): Promise<PurchaseOutcome> {
  const { ledger, chain, wallet } = ctx.deps;
  const { answer } = sent;
  const label = ctx.server.label;
  const priceUsd = formatUsd(priced.units);
  const paid = { ...ctx.at, priceUsd, payTo: priced.payTo, signed: true, answeredInMs: sent.answeredInMs };
  if (!answer.ok) return unanswered(ctx, priced, sent, answer, paid);
  if (!answer.transaction) {
    const moved = await chain.authorizationUsed(wallet.address, sent.nonce).catch(() => undefined);
    await ledger.update(sent.attemptId, { status: moved === false ? "refused" : "disputed", code: "no_settlement", note: "no transaction in the answer" });
    const message = `${label} answered without a settlement transaction, so the payment cannot be checked${moved === false ? " (it was not used: nothing was paid)" : ""}.`;
    return { status: "disputed", code: "unverified", message, ...paid, result: answer.result };
  }
  const transaction = answer.transaction;
  const check = await chain.checkPayment({ transaction, from: wallet.address, payTo: priced.payTo, units: priced.units });
  if (!check.ok) {
    await ledger.update(sent.attemptId, { status: "disputed", code: "unverified", transaction, note: check.reason.slice(0, 300) });
    return { status: "disputed", code: "unverified", message: `${label}'s answer does not match the chain: ${check.reason}. Not counted as a good purchase.`, ...paid, transaction, result: answer.result };
  }
  if (answer.jobId) {
    const checkAfterSeconds = answer.checkAfterSeconds ?? 60;
    const checkAfter = new Date(Date.now() + checkAfterSeconds * 1000).toISOString();
    await ledger.update(sent.attemptId, { status: "job-pending", transaction, jobId: answer.jobId, checkAfter, orderId: answer.orderId });
    const message = `Paid ${priceUsd} (transaction ${transaction}). "${priced.name}" is being prepared: call check_job with jobId "${answer.jobId}" after ${checkAfter} (about ${checkAfterSeconds} s).`;
    return { status: "job-pending", code: "job_pending", message, ...paid, transaction, orderId: answer.orderId, jobId: answer.jobId, checkAfterSeconds };
  }
  await ledger.update(sent.attemptId, { status: "paid", transaction, orderId: answer.orderId });
  const order = priced.order === "after-success" ? ", settled after the tool succeeded" : "";
  return { status: "delivered", code: "delivered", message: `Paid ${priceUsd} to ${label} for "${priced.name}" (transaction ${transaction}, checked on chain${order}).`, ...paid, transaction, orderId: answer.orderId, result: answer.result };
}
