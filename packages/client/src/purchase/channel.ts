// Payment channels (x402's batch-settlement scheme) as the wallet pays them: the first call to a channel item opens a
// channel with one deposit (an ERC-3009 authorisation the facilitator puts on chain), each later call is a voucher
// for the running total, and a call past what the channel holds tops it up with another deposit. The channel's state
// (what was deposited, what the server has counted) is kept beside the wallet's ledger, by @x402/evm's own file
// storage, so it survives restarts; the chain is read when there is none. The spending policy's maxChannelDeposit
// bounds what one channel may hold; the person is asked once per deposit, never per voucher.
import path from "node:path";
import { formatUsd, type PaymentRequirementsV2 } from "@agora-mcp/protocol";
import { toClientEvmSigner } from "@x402/evm";
import {
  BatchSettlementEvmScheme,
  computeChannelId,
  readChannelBalanceAndTotalClaimed,
  updateChannelFromSettle,
  type ClientChannelStorage,
} from "@x402/evm/batch-settlement/client";
import { FileClientChannelStorage } from "@x402/evm/batch-settlement/client/file-storage";
import { encodeAbiParameters, keccak256 } from "viem";
import type { ChainReader } from "../chain.js";
import { networkSlug, type Settings } from "../settings.js";
import type { Wallet } from "../wallet.js";
import { policyOf } from "./check.js";
import type { ChannelTerms } from "./types.js";

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
  const signer = toClientEvmSigner(wallet.account, { readContract: (args) => chain.readContract(args) });
  return new BatchSettlementEvmScheme(signer, {
    storage,
    // The deposit is the one the policy and the person agreed to; a scheme that wants another is stopped.
    depositStrategy: (ctx) => {
      if (deposit === undefined || BigInt(ctx.minimumDepositAmount) > deposit)
        throw new Error("the channel needs a deposit the wallet did not agree to; nothing was signed");
      return deposit.toString();
    },
  });
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
  const config = scheme.buildChannelConfig(requirements as never);
  const channelId = computeChannelId(config, requirements.network);
  const local = await storage.get(channelId.toLowerCase());
  let balance: bigint;
  let charged: bigint;
  if (local?.balance !== undefined) {
    balance = BigInt(local.balance);
    charged = BigInt(local.chargedCumulativeAmount ?? "0");
  } else {
    const signer = toClientEvmSigner(deps.wallet.account, { readContract: (args) => deps.chain.readContract(args) });
    [balance, charged] = await readChannelBalanceAndTotalClaimed(signer, channelId);
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

/** After a paid call: the channel's running total (and deposit) as the server's settlement says, kept for the next call. */
export async function recordChannelCall(
  settings: Settings,
  terms: ChannelTerms,
  units: bigint,
  settlement: { extra?: Record<string, unknown> } | undefined,
): Promise<void> {
  const extra = settlement?.extra as
    { chargedAmount?: string; channelState?: { chargedCumulativeAmount?: string } } | undefined;
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
