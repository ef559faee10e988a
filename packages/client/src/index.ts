// @agora-mcp/client: a local MCP server (stdio) that gives an agent a USDC wallet for paid MCP servers.
export { loadSettings, SettingsError, SETTING_NAMES, type Settings } from "./settings.js";
export { openWallet, importWallet, WalletError, type Wallet } from "./wallet.js";
export { Ledger, CapExceeded, type LedgerEntry, type LedgerStatus } from "./ledger.js";
export { chainReader, type ChainReader } from "./chain.js";
export { registryEndpoint } from "./registry.js";
export { buildClientServer, type ClientDeps } from "./tools.js";
