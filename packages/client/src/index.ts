// @agora-mcp/client: a local MCP server (stdio) that gives an agent a USDC wallet for paid MCP servers.
export { loadSettings, ledgerFileFor, SettingsError, SETTING_NAMES, type Settings } from "./settings.js";
export { openLedger } from "./wallet-ledger.js";
export { openWallet, importWallet, walletFromKey, WalletError, type Wallet } from "./wallet.js";
export { Ledger, CapExceeded, type LedgerEntry, type LedgerStatus, type PurchaseLedger } from "./ledger.js";
export { chainReader, type ChainReader } from "./chain.js";
export { registryEndpoint } from "./registry.js";
export { buildClientServer, type ClientDeps } from "./tools.js";
export { purchase, type PurchaseDeps, type PurchaseInput, type PurchaseOutcome, type PurchaseStatus } from "./purchase.js";
export { checkJob, readJob, type JobCheck } from "./jobs.js";
export { review, revokeReview, signReview, signRevocation, type ReviewInput, type ReviewOutcome, type RevokeReviewInput, type RevokeReviewOutcome, type ReviewDeps } from "./review.js";
export type { ConnectionOptions } from "./connections.js";
