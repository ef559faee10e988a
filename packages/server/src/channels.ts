// Sells an item through x402's `batch-settlement` scheme: a buyer opens a payment channel once (an ERC-3009 deposit
// the facilitator puts on chain) and pays each later call with a voucher, a signature over the running total the
// seller may claim. Vouchers are checked here by x402's own server scheme (signature, the exact next total, the
// channel's balance) without a transaction; the kit claims the latest voucher of every channel in one transaction on
// its own schedule (every `claimEvery` paid calls, every `claimIntervalSeconds`, and when the server closes) and then
// settles what was claimed to the seller's wallet. A voucher is committed only after the item succeeded, so a failed
// call costs nothing, and the same voucher twice, or one past the deposit, is refused.
import { HTTPFacilitatorClient, x402ResourceServer } from "@x402/core/server";
import type {
  PaymentPayload as X402PaymentPayload,
  PaymentRequirements as X402PaymentRequirements,
  SettleResponse,
} from "@x402/core/types";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/server";
import { z } from "zod";
import { EVM_ADDRESS, sameAddress } from "@agora-mcp/protocol";
import type { SaleItem, ResolvedOptions } from "./config.js";
import type { Refused, Settled, VerifiedPayment } from "./verdicts.js";
import { bounded, classifyReason, OUTAGE_MESSAGES, REFUSAL_MESSAGES } from "./refusals.js";

const BATCH_SETTLEMENT = "batch-settlement";

const address = z.string().regex(EVM_ADDRESS);
const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
const uint = z.string().regex(/^\d{1,39}$/);

/** A channel payment as a buyer sends it: a deposit that opens or tops up the channel, or a voucher on it. */
const channelPaymentSchema = z.object({
  x402Version: z.literal(2),
  resource: z.object({ url: z.string() }).passthrough().optional(),
  accepted: z.object({
    scheme: z.literal(BATCH_SETTLEMENT),
    network: z.string(),
    asset: address,
    amount: uint,
    payTo: address,
    maxTimeoutSeconds: z.number(),
    extra: z.record(z.string(), z.unknown()).default({}),
  }),
  payload: z
    .object({
      type: z.enum(["deposit", "voucher", "refund"]),
      channelConfig: z.object({
        payer: address,
        payerAuthorizer: address,
        receiver: address,
        receiverAuthorizer: address,
        token: address,
        withdrawDelay: z.number().int(),
        salt: hex32,
      }),
      voucher: z.object({
        channelId: hex32,
        maxClaimableAmount: uint,
        signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
      }),
      /** A refund's part of what the channel still holds; absent, all of it. */
      amount: uint.optional(),
    })
    .passthrough(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

type ChannelSchedule = { claimEvery: number; claimIntervalSeconds: number };

/** A channel the buyer closed (or drew from): what went back to the payer, in the transaction that claimed the rest. */
export type ChannelRefund = { ok: true; transaction: string; refunded: bigint; settlement: SettleResponse };

/** Whether a payment sent to a channel item asks to close the channel rather than to pay for a call. */
export function isRefundRequest(rawPayment: unknown): boolean {
  const value = typeof rawPayment === "string" ? safeJson(rawPayment) : rawPayment;
  const payload = (value as { payload?: { type?: unknown } } | undefined)?.payload;
  return typeof payload === "object" && payload !== null && payload.type === "refund";
}

export class ChannelDesk {
  private readonly scheme: BatchSettlementEvmScheme;
  private readonly server: x402ResourceServer;
  private ready?: Promise<boolean>;
  /** Paid calls whose vouchers are not claimed yet, and the claim running now (claims run one at a time). */
  private unclaimed = 0;
  private claiming: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  private readonly schedule: ChannelSchedule;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly facilitator: HTTPFacilitatorClient,
  ) {
    this.scheme = new BatchSettlementEvmScheme(options.walletAddress);
    this.server = new x402ResourceServer(facilitator).register(options.network.caip2, this.scheme);
    const channelItems = options.items.filter((i) => i.channel);
    this.schedule = {
      claimEvery: Math.min(...channelItems.map((i) => i.channel!.claimEvery), Number.MAX_SAFE_INTEGER),
      claimIntervalSeconds: Math.min(
        ...channelItems.map((i) => i.channel!.claimIntervalSeconds),
        Number.MAX_SAFE_INTEGER,
      ),
    };
  }

  /** Asks the facilitator once (again after a failure) which schemes it settles: channels need its receiverAuthorizer. */
  private initialised(): Promise<boolean> {
    this.ready ??= this.server.initialize().then(
      () => this.server.getSupportedKind(2, this.options.network.caip2, BATCH_SETTLEMENT) !== undefined,
      (error: unknown) => {
        this.options.log(`facilitator supported: ${bounded(String((error as Error).message ?? error))}`);
        this.ready = undefined;
        return false;
      },
    );
    return this.ready;
  }

  /** The requirements a buyer pays `item` by: the per-call price, the facilitator's receiverAuthorizer, the deposit hint. */
  async offer(item: SaleItem): Promise<X402PaymentRequirements | undefined> {
    if (!(await this.initialised())) return undefined;
    const { network, walletAddress } = this.options;
    const minDeposit = item.channel!.minDeposit;
    try {
      const [requirements] = await this.server.buildPaymentRequirements({
        scheme: BATCH_SETTLEMENT,
        network: network.caip2,
        payTo: walletAddress,
        price: {
          amount: item.units.toString(),
          asset: network.asset,
          extra: { name: network.eip712.name, version: network.eip712.version },
        },
        ...(minDeposit !== undefined ? { extra: { minDeposit: minDeposit.toString() } } : {}),
      });
      return requirements;
    } catch (error) {
      this.options.log(`channel requirements: ${bounded(String((error as Error).message ?? error))}`);
      return undefined;
    }
  }

  /**
   * Checks a channel payment for `item` and reserves its voucher: the channel answers no other call until this one is
   * settled (committed after a delivery) or released (nothing delivered; the buyer may send the same voucher again).
   */
  async verify(item: SaleItem, rawPayment: unknown): Promise<VerifiedPayment | Refused> {
    const checked = await this.check(item, rawPayment);
    if (!checked.ok) return checked;
    const { payment, offered, verifyMs, payer, depositValidBefore } = checked;
    if (checked.type === "refund") {
      this.cancel(payment, offered);
      return {
        ok: false,
        code: "wrong_scheme",
        reason: "Payment refused: a refund pays for no call; send it on its own to close the channel",
      };
    }
    let settling: Promise<Settled | Refused> | undefined;
    return {
      ok: true,
      payer,
      // A voucher has no expiry of its own: the call must be done while the channel's reservation lasts, and a deposit
      // while its authorisation can still be put on chain.
      validBefore: Math.min(
        Math.floor(Date.now() / 1000) + offered.maxTimeoutSeconds,
        depositValidBefore ?? Number.MAX_SAFE_INTEGER,
      ),
      verifyMs,
      release: () => this.cancel(payment, offered),
      settle: () => (settling ??= this.commit(payment, offered, payer, verifyMs)),
    };
  }

  /** Frees the channel's reservation for a call that delivered nothing: the same voucher may come again. */
  private cancel(payment: X402PaymentPayload, offered: X402PaymentRequirements): void {
    void this.server
      .createPaymentCancellationDispatcher(payment, offered)
      .cancel({ reason: "handler_failed" })
      .catch((error: unknown) =>
        this.options.log(`channel release: ${bounded(String((error as Error).message ?? error))}`),
      );
  }

  /** Parses, prechecks and verifies a channel payment (through x402's scheme hooks, which reserve the channel). */
  private async check(item: SaleItem, rawPayment: unknown) {
    const parsed = channelPaymentSchema.safeParse(typeof rawPayment === "string" ? safeJson(rawPayment) : rawPayment);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const refused: Refused = {
        ok: false,
        code: "malformed",
        reason: `Payment refused: the channel payment is malformed${issue ? ` at ${issue.path.join(".") || "top level"}` : ""}`,
      };
      return refused;
    }
    const offered = await this.offer(item);
    if (!offered)
      return {
        ok: false as const,
        code: "unreachable" as const,
        reason: OUTAGE_MESSAGES.verify.unreachable,
        unavailable: true,
      };
    const mismatch = this.precheck(item, parsed.data, offered);
    if (mismatch) return { ok: false as const, code: "mismatch" as const, reason: mismatch };
    // The scheme keeps each request's state by the payload object's identity: the same object is verified, settled
    // or released.
    const payment = { ...parsed.data, accepted: offered } as unknown as X402PaymentPayload;
    const t0 = performance.now();
    let verified;
    try {
      verified = await this.server.verifyPayment(payment, offered);
    } catch (error) {
      return this.outage("verify", error);
    }
    const verifyMs = Math.round(performance.now() - t0);
    if (!verified.isValid) return this.refuse(item, payment, offered, verified.invalidReason, verified.invalidMessage);
    const validBefore = (
      parsed.data.payload as { deposit?: { authorization?: { erc3009Authorization?: { validBefore?: unknown } } } }
    ).deposit?.authorization?.erc3009Authorization?.validBefore;
    const depositValidBefore =
      typeof validBefore === "string" && /^\d{1,15}$/.test(validBefore) ? Number(validBefore) : undefined;
    return {
      ok: true as const,
      type: parsed.data.payload.type,
      payment,
      offered,
      verifyMs,
      payer: parsed.data.payload.channelConfig.payer,
      depositValidBefore,
    };
  }

  /**
   * Closes a channel at its buyer's request (x402's cooperative refund): in one transaction the calls delivered on it
   * are claimed and what is left goes back to the payer; the claimed part is then settled to the seller. Refused while
   * a call on the channel is still running (it is claimed first, once it is done).
   */
  async refund(item: SaleItem, rawPayment: unknown): Promise<ChannelRefund | Refused> {
    const checked = await this.check(item, rawPayment);
    if (!checked.ok) return checked;
    if (checked.type !== "refund")
      return { ok: false, code: "wrong_scheme", reason: "Payment refused: this is a payment for a call, not a refund" };
    const settled = await this.settle(checked.payment, checked.offered);
    if (!settled.ok) return settled;
    this.options.log(
      `channels: ${checked.payer} closed a channel for ${item.id}; ${settled.amount ?? "0"} units went back (${settled.transaction})`,
    );
    // The refund's transaction claimed the delivered calls; paying them to the seller is the settle that follows.
    void this.settleClaimed();
    const { ok: _ok, ...settlement } = settled;
    return { ok: true, transaction: settled.transaction, refunded: BigInt(settled.amount || "0"), settlement };
  }

  /** Pays the seller what was claimed and not yet paid (after a refund claimed a channel's calls). */
  private settleClaimed(): Promise<void> {
    this.claiming = this.claiming.then(async () => {
      try {
        await this.manager().settle();
      } catch (error) {
        this.options.log(
          `channels: settle after a refund failed, tried again at the next claim: ${bounded(String((error as Error).message ?? error))}`,
        );
      }
    });
    return this.claiming;
  }

  private manager() {
    return this.scheme.createChannelManager(
      this.facilitator,
      this.options.network.caip2,
      this.options.network.asset as `0x${string}`,
    );
  }

  /** x402's settle for a channel payload (the scheme's hooks first): its answer, or the refusal in the kit's words. */
  private async settle(
    payment: X402PaymentPayload,
    requirements: X402PaymentRequirements,
  ): Promise<(SettleResponse & { ok: true }) | Refused> {
    let settled: SettleResponse;
    try {
      settled = await this.server.settlePayment(payment, requirements);
    } catch (error) {
      const verdict = error as { errorReason?: string; errorMessage?: string };
      if (verdict.errorReason) return this.refuseSettle(verdict.errorReason, verdict.errorMessage);
      return this.outage("settle", error);
    }
    return settled.success ? { ...settled, ok: true } : this.refuseSettle(settled.errorReason, settled.errorMessage);
  }

  /** Commits a delivered call: a voucher moves nothing on chain now, a deposit is put on chain first. */
  private async commit(
    payment: X402PaymentPayload,
    requirements: X402PaymentRequirements,
    payer: string,
    verifyMs: number,
  ): Promise<Settled | Refused> {
    const t1 = performance.now();
    const settled = await this.settle(payment, requirements);
    const settleMs = Math.round(performance.now() - t1);
    if (!settled.ok) return settled;
    this.paidCall();
    return {
      ok: true,
      transaction: settled.transaction,
      network: String(settled.network),
      payer: settled.payer ?? payer,
      units: BigInt(requirements.amount),
      timings: { verifyMs, settleMs },
      // The channel's running total after this call: the buyer's client keeps its own count by it.
      ...(settled.extra ? { extra: settled.extra } : {}),
    };
  }

  /** Counts a paid call, and claims once `claimEvery` are waiting (in the background: the buyer never waits for it). */
  private paidCall(): void {
    this.unclaimed += 1;
    if (!this.timer && Number.isFinite(this.schedule.claimIntervalSeconds)) {
      this.timer = setInterval(() => {
        if (this.unclaimed > 0) void this.claim();
      }, this.schedule.claimIntervalSeconds * 1000);
      this.timer.unref();
    }
    if (this.unclaimed >= this.schedule.claimEvery) void this.claim();
  }

  /**
   * Claims every channel's latest voucher in one transaction and settles what was claimed to the seller's wallet. A
   * failed claim is logged and tried again at the next turn: the vouchers stay valid.
   */
  claim(): Promise<void> {
    this.claiming = this.claiming.then(async () => {
      if (this.unclaimed === 0) return;
      const counted = this.unclaimed;
      try {
        const { claims, settle } = await this.manager().claimAndSettle();
        this.unclaimed -= counted;
        const vouchers = claims.reduce((n, c) => n + c.vouchers, 0);
        if (vouchers > 0)
          this.options.log(
            `channels: claimed ${vouchers} voucher(s) (${claims.map((c) => c.transaction).join(", ")}), settled in ${settle?.transaction ?? "no transaction"}`,
          );
      } catch (error) {
        this.options.log(
          `channels: claim failed, tried again later: ${bounded(String((error as Error).message ?? error))}`,
        );
      }
    });
    return this.claiming;
  }

  /** Claims what is waiting and stops the timer (the server is closing). */
  async shutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.claim();
  }

  private precheck(
    item: SaleItem,
    payment: z.infer<typeof channelPaymentSchema>,
    offered: X402PaymentRequirements,
  ): string | undefined {
    const { network, walletAddress } = this.options;
    const { accepted, payload } = payment;
    if (accepted.network !== network.caip2)
      return `Payment refused: it is for network ${accepted.network.slice(0, 40)}, this server is paid on ${network.label}`;
    if (!sameAddress(accepted.asset, network.asset) || !sameAddress(payload.channelConfig.token, network.asset))
      return `Payment refused: it is in another token; this server takes USDC on ${network.label}`;
    if (!sameAddress(accepted.payTo, walletAddress) || !sameAddress(payload.channelConfig.receiver, walletAddress))
      return "Payment refused: it names another payee than this server's wallet";
    if (accepted.amount !== offered.amount)
      return `Payment refused: it pays ${accepted.amount} units a call, "${item.name}" costs ${offered.amount}`;
    const authorizer = offered.extra?.receiverAuthorizer;
    if (typeof authorizer !== "string" || !sameAddress(payload.channelConfig.receiverAuthorizer, authorizer))
      return "Payment refused: the channel names another receiver authorizer than the facilitator's";
    const resource = payment.resource?.url;
    if (resource !== undefined && !resource.endsWith(`#${item.x402Tool}/${item.id}`))
      return `Payment refused: it was made out for another item, not "${item.name}"; pay the requirements this tool answers`;
    return undefined;
  }

  /** A refusal by x402's scheme or the facilitator; a stale voucher base comes back with the channel's state. */
  private async refuse(
    item: SaleItem,
    payment: X402PaymentPayload,
    offered: X402PaymentRequirements,
    reason: string | undefined,
    message: string | undefined,
  ): Promise<Refused> {
    const kind = classifyReason(reason);
    this.options.log(
      `channel payment refused for ${item.id} (${kind}): ${bounded(`${reason ?? "no reason"}${message ? ` ${message}` : ""}`)}`,
    );
    const refused: Refused = { ok: false, code: kind, reason: `Payment refused: ${REFUSAL_MESSAGES[kind]}` };
    if (kind === "already_used") {
      const answer = await this.server
        .createPaymentRequiredResponse([offered], { url: "" }, reason ?? "", undefined, undefined, payment)
        .catch(() => undefined);
      if (answer && reason) refused.corrective = { error: reason, accepts: answer.accepts };
    }
    return refused;
  }

  private refuseSettle(reason: string | undefined, message: string | undefined): Refused {
    const kind = classifyReason(reason);
    this.options.log(
      `channel settlement refused (${kind}): ${bounded(`${reason ?? "no reason"}${message ? ` ${message}` : ""}`)}`,
    );
    return { ok: false, code: kind, reason: `Payment not settled: ${REFUSAL_MESSAGES[kind]}` };
  }

  private outage(step: "verify" | "settle", error: unknown): Refused {
    const name = String((error as { name?: string }).name);
    const outage = ["FacilitatorTimeoutError", "TimeoutError", "AbortError"].includes(name) ? "timeout" : "error";
    this.options.log(`facilitator ${step} ${outage} (channel): ${bounded(String((error as Error).message ?? error))}`);
    return { ok: false, code: outage, reason: OUTAGE_MESSAGES[step][outage], unavailable: true };
  }
}

function safeJson(text: string): unknown {
  try {
    const trimmed = text.trim();
    return JSON.parse(trimmed.startsWith("{") ? trimmed : Buffer.from(trimmed, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
}
