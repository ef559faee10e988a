// Payment channels (x402's batch-settlement scheme) as the wallet pays them: the first call to a channel item opens a
// channel with one deposit (an ERC-3009 authorisation the facilitator puts on chain), each later call is a voucher
// for the running total, and a call past what the channel holds tops it up with another deposit. The channel's state
// (what was deposited, what the server has counted) is kept beside the wallet's ledger, by @x402/evm's own file
// storage, so it survives restarts; the chain is read when there is none. The spending policy's maxChannelDeposit
// bounds what one channel may hold; the person is asked once per deposit, never per voucher.
import path from "node:path";
import { formatUsd, type PaymentAsk, type PaymentRequired, type PaymentRequirementsV2 } from "@agora-mcp/protocol";
import type { PaymentRequired as X402PaymentRequired } from "@x402/core/types";
import { toClientEvmSigner, type ClientEvmSigner } from "@x402/evm";
import {
  BatchSettlementEvmScheme,
  computeChannelId,
  readChannelBalanceAndTotalClaimed,
  updateChannelFromSettle,
  type ClientChannelStorage,
} from "@x402/evm/batch-settlement/client";
import { FileClientChannelStorage } from "@x402/evm/batch-settlement/client/file-storage";
import { encodeAbiParameters, keccak256 } from "viem";
import { z } from "zod";
import type { ChainReader } from "../chain.js";
import { networkSlug, type Settings } from "../settings.js";
import type { Wallet } from "../wallet.js";
import { policyOf } from "./check.js";
import type { Answer, ChannelTerms, Context } from "./types.js";

/** Where the wallet keeps its channels: beside its ledger, one folder per network. */
export function channelDirectory(settings: Pick<Settings, "walletFile" | "network">): string {
  if (!settings.walletFile)
    throw new Error("payment channels need the wallet file's folder to keep their state; nothing was signed");
  return path.join(path.dirname(settings.walletFile), `channels-${networkSlug(settings.network)}`);
}

export function channelStorage(settings: Pick<Settings, "walletFile" | "network">): ClientChannelStorage {
  return new FileClientChannelStorage({ directory: channelDirectory(settings) });
}

/** x402's channel scheme for this wallet, signing with its key and reading the chain through the buyer's reader. */
export function channelScheme(
  wallet: Wallet,
  chain: ChainReader,
  storage: ClientChannelStorage,
  deposit?: bigint,
): BatchSettlementEvmScheme {
  return new BatchSettlementEvmScheme(channelSigner(wallet, chain), {
    storage,
    // The deposit is the one the policy and the person agreed to; a scheme that wants another is stopped.
    depositStrategy: (ctx) => {
      if (deposit === undefined || BigInt(ctx.minimumDepositAmount) > deposit)
        throw new Error("the channel needs a deposit the wallet did not agree to; nothing was signed");
      return deposit.toString();
    },
  });
}

/** The wallet's key as x402's signer, reading the chain through the buyer's reader. */
export function channelSigner(wallet: Wallet, chain: ChainReader): ClientEvmSigner {
  return toClientEvmSigner(wallet.account, { readContract: (args) => chain.readContract(args) });
}

/** What the channel holds on chain (its `balance`), or undefined when the chain cannot be read. */
export async function channelHolds(
  deps: { wallet: Wallet; chain: ChainReader },
  channelId: `0x${string}`,
): Promise<bigint | undefined> {
  try {
    const [balance] = await readChannelBalanceAndTotalClaimed(channelSigner(deps.wallet, deps.chain), channelId);
    return balance;
  } catch {
    return undefined;
  }
}

/** The most one channel may hold unspent: the policy's maxChannelDeposit, else its maxPerPurchase. */
export function channelLimit(settings: Settings): { units: bigint; rule: string } {
  const policy = policyOf(settings);
  const limit = policy.maxChannelDeposit ?? policy.maxPerPurchase;
  return {
    units: limit.value,
    rule: policy.maxChannelDeposit ? "maxChannelDeposit" : "maxChannelDeposit (not set: maxPerPurchase applies)",
  };
}

/**
 * Where the channel for `requirements` stands, and the deposit this call must make (none when the channel holds the
 * call already): the server's hint (extra.minDeposit), at least one call, at most the policy's limit and the balance.
 */
export async function planChannel(
  deps: { settings: Settings; wallet: Wallet; chain: ChainReader },
  requirements: PaymentRequirementsV2,
  units: bigint,
): Promise<{ ok: true; terms: ChannelTerms } | { ok: false; rule: string; message: string }> {
  const storage = channelStorage(deps.settings);
  const scheme = channelScheme(deps.wallet, deps.chain, storage);
  const config = scheme.buildChannelConfig(requirements);
  const channelId = computeChannelId(config, requirements.network);
  const local = await storage.get(channelId.toLowerCase());
  let balance: bigint;
  let charged: bigint;
  if (local?.balance !== undefined) {
    balance = BigInt(local.balance);
    charged = BigInt(local.chargedCumulativeAmount ?? "0");
  } else {
    [balance, charged] = await readChannelBalanceAndTotalClaimed(channelSigner(deps.wallet, deps.chain), channelId);
  }
  const terms = { channelId, balance, charged };
  if (balance > 0n && charged + units <= balance) return { ok: true, terms };
  const limit = channelLimit(deps.settings);
  const hint =
    typeof requirements.extra.minDeposit === "string" && /^\d{1,30}$/.test(requirements.extra.minDeposit)
      ? BigInt(requirements.extra.minDeposit)
      : units;
  const needed = charged + units - balance;
  // What the channel holds for calls to come: its deposits less what the server has counted.
  const unspent = balance - charged;
  let deposit = hint > needed ? hint : needed;
  if (unspent + deposit > limit.units) deposit = limit.units - unspent;
  if (deposit < needed) {
    const message = `Refused by ${limit.rule}: a payment channel may hold at most ${formatUsd(limit.units)}, and the next call (${formatUsd(units)}) needs ${formatUsd(needed)} more in it.`;
    return { ok: false, rule: limit.rule, message };
  }
  return { ok: true, terms: { ...terms, deposit } };
}

/** The ERC-3009 nonce a channel deposit's authorisation carries: the chain tells whether it was used. */
export function depositNonce(channelId: `0x${string}`, salt: string): `0x${string}` {
  return keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }], [channelId, BigInt(salt)]));
}

/** What a channel's settlement says of its running total (x402's BatchSettlementPaymentResponseExtra), as far as it is read. */
const channelSettlementSchema = z.object({
  chargedAmount: z.string().optional(),
  channelState: z.object({ chargedCumulativeAmount: z.string().optional() }).optional(),
});

/** After a paid call: the channel's running total (and deposit) as the server's settlement says, kept for the next call. */
async function recordChannelCall(
  settings: Settings,
  terms: ChannelTerms,
  units: bigint,
  settlement: { extra?: Record<string, unknown> },
): Promise<void> {
  const read = channelSettlementSchema.safeParse(settlement.extra ?? {});
  const extra = read.success ? read.data : undefined;
  await updateChannelFromSettle(channelStorage(settings), {
    server: {
      chargedAmount: extra?.chargedAmount ?? units.toString(),
      chargedCumulativeAmount: extra?.channelState?.chargedCumulativeAmount,
    },
    local: {
      channelId: terms.channelId,
      requestAmount: units.toString(),
      ...(terms.deposit !== undefined ? { depositAmount: terms.deposit.toString() } : {}),
    },
  });
}

/**
 * A request for payment as x402's client reads it: version 2's offers only (a channel is version 2 only), and the
 * resource the paid call was for when the answer names none.
 */
function asX402Required(required: PaymentRequired, url: string): X402PaymentRequired {
  const accepts = required.accepts.filter((a): a is PaymentRequirementsV2 => "amount" in a);
  return { ...required, resource: required.resource ?? { url }, accepts };
}

/**
 * A channel's count after the paid call's answer. A paid answer moves it on by this call. A server whose count
 * differs from this wallet's refuses the voucher with the channel's state and the last voucher it holds (`again`);
 * x402's client checks that voucher is this wallet's own signature before taking the count, so the next purchase
 * signs the right total (this one is not retried: nothing is ever sent twice). A refused or failed call leaves the
 * count where it was, so the next call signs the same total again.
 */
export async function followChannelAnswer(
  ctx: Context,
  offer: { tool: string; units: bigint; channel: ChannelTerms },
  answer: Answer,
  again?: PaymentAsk,
): Promise<Answer> {
  const { wallet, chain, settings } = ctx.deps;
  if (again) {
    const required = asX402Required(again.required, `${ctx.server.url}#${offer.tool}`);
    await channelScheme(wallet, chain, channelStorage(settings))
      .processCorrectivePaymentRequired(required)
      .catch(() => undefined);
  }
  if (answer.ok) await recordChannelCall(settings, offer.channel, offer.units, answer);
  return answer;
}
