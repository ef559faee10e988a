// @agora-mcp/client: a local MCP server (stdio) that gives an agent a USDC wallet for paid MCP servers.
export {
  loadSettings,
  ledgerFileFor,
  defaultPolicyFile,
  SettingsError,
  SETTING_NAMES,
  type Settings,
} from "./settings.js";
export { LimitConflict, loadPolicy, PolicyError, policyFileSchema, type PolicyFile } from "./policy/load.js";
export { checkPolicy, type PolicyRequest, type PolicyVerdict, type BudgetUse } from "./policy/check.js";
export { windowStart, type Policy, type Window } from "./policy/rules.js";
export { openLedger } from "./wallet-ledger.js";
export { openWallet, importWallet, walletFromKey, WalletError, type Wallet } from "./wallet.js";
export {
  Ledger,
  CapExceeded,
  PolicyRefused,
  type AttemptCode,
  type BudgetLedger,
  type LedgerEntry,
  type LedgerStatus,
  type PurchaseLedger,
} from "./ledger.js";
export {
  chainReader,
  judgeTransfers,
  permit2NonceUsed,
  type ChainReader,
  type PaymentCheck,
  type PaymentChecked,
} from "./chain.js";
export { registryEndpoint } from "./registry.js";
export { buildClientServer, type ClientDeps } from "./tools/index.js";
export {
  OUTCOME_CODES,
  purchase,
  type OutcomeCode,
  type PurchaseDeps,
  type PurchaseInput,
  type PurchaseOutcome,
  type PurchaseStatus,
  type SettlementOrder,
} from "./purchase/index.js";
export { closeChannel, type CloseChannelInput, type CloseChannelOutcome } from "./purchase/close.js";
export { checkJob, readJob, type JobCheck } from "./jobs.js";
export { Confirmations, type Asker } from "./confirm.js";
export {
  review,
  revokeReview,
  signReview,
  signRevocation,
  type ReviewInput,
  type ReviewOutcome,
  type RevokeReviewInput,
  type RevokeReviewOutcome,
  type ReviewDeps,
} from "./review.js";
export { signReceipt } from "./purchase/delivery-receipt.js";
export type { ConnectionOptions } from "./connections.js";
export { jsonErrorPlace } from "./json-place.js";
export { chainName, isLocalChain } from "./local-chain.js";
