// The receipt: what the server answered, checked against the chain (a purchase counts as paid only when exactly the
// price went to the payee), written to the ledger as the attempt's last state (a refusal releases its reservation).
import { formatUsd } from "@agora-mcp/protocol";
import type { Answer, Context, Priced, PurchaseOutcome } from "./types.js";

type Sent = { attemptId: string; nonce: `0x${string}`; answer: Answer; answeredInMs: number };

/** The server answered no (or nothing): whether the signed authorisation was used decides refused or disputed. */
async function unanswered(ctx: Context, priced: Priced, sent: Sent, reason: string, paid: Partial<PurchaseOutcome>): Promise<PurchaseOutcome> {
  const { ledger, chain, wallet } = ctx.deps;
  const label = ctx.server.label;
  const moved = await chain.authorizationUsed(wallet.address, sent.nonce).catch(() => undefined);
  if (moved === false) {
    await ledger.update(sent.attemptId, { status: "refused", note: reason.slice(0, 300) });
    return { status: "failed", message: `${label} refused the purchase: ${reason} The payment was not used; nothing was paid.`, signed: true, ...paid };
  }
  await ledger.update(sent.attemptId, { status: moved ? "disputed" : "unknown", note: reason.slice(0, 300) });
  const message = moved
    ? `${label} took the payment of ${formatUsd(priced.units)} but delivered nothing: ${reason} Quote the payee ${priced.payTo} to the provider.`
    : `${label} refused the purchase (${reason}) and the chain could not be read to tell whether the payment was used.`;
  return { status: "disputed", message, signed: true, ...paid };
}

export async function receipt(ctx: Context, priced: Priced, sent: Sent): Promise<PurchaseOutcome> {
  const { ledger, chain, wallet } = ctx.deps;
  const { answer } = sent;
  const label = ctx.server.label;
  const priceUsd = formatUsd(priced.units);
  const paid = { ...ctx.at, priceUsd, payTo: priced.payTo, signed: true, answeredInMs: sent.answeredInMs };
  if (!answer.ok) return unanswered(ctx, priced, sent, answer.reason, paid);
  if (!answer.transaction) {
    const moved = await chain.authorizationUsed(wallet.address, sent.nonce).catch(() => undefined);
    await ledger.update(sent.attemptId, { status: moved === false ? "refused" : "disputed", note: "no transaction in the answer" });
    return { status: "disputed", message: `${label} answered without a settlement transaction, so the payment cannot be checked${moved === false ? " (it was not used: nothing was paid)" : ""}.`, ...paid, result: answer.result };
  }
  const transaction = answer.transaction;
  const check = await chain.checkPayment({ transaction, from: wallet.address, payTo: priced.payTo, units: priced.units });
  if (!check.ok) {
    await ledger.update(sent.attemptId, { status: "disputed", transaction, note: check.reason.slice(0, 300) });
    return { status: "disputed", message: `${label}'s answer does not match the chain: ${check.reason}. Not counted as a good purchase.`, ...paid, transaction, result: answer.result };
  }
  if (answer.jobId) {
    const checkAfterSeconds = answer.checkAfterSeconds ?? 60;
    const checkAfter = new Date(Date.now() + checkAfterSeconds * 1000).toISOString();
    await ledger.update(sent.attemptId, { status: "job-pending", transaction, jobId: answer.jobId, checkAfter, orderId: answer.orderId });
    const message = `Paid ${priceUsd} (transaction ${transaction}). "${priced.name}" is being prepared: call check_job with jobId "${answer.jobId}" after ${checkAfter} (about ${checkAfterSeconds} s).`;
    return { status: "job-pending", message, ...paid, transaction, orderId: answer.orderId, jobId: answer.jobId, checkAfterSeconds };
  }
  await ledger.update(sent.attemptId, { status: "paid", transaction, orderId: answer.orderId });
  return { status: "delivered", message: `Paid ${priceUsd} to ${label} for "${priced.name}" (transaction ${transaction}, checked on chain).`, ...paid, transaction, orderId: answer.orderId, result: answer.result };
}
