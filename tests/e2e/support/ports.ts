// Every port the end-to-end run uses, derived from E2E_PORT so several checkouts can run side by side.
export const appPort = Number(process.env.E2E_PORT ?? 3100);
export const mailchimpPort = appPort + 99;
export const githubPort = appPort + 98;
export const smtpPort = appPort + 97;
export const inboxPort = appPort + 96;
export const referencePort = appPort + 95;
/** The local chain (anvil as Base Sepolia) and its x402 facilitator: paid purchases and buyer reviews. */
export const chainPort = appPort + 94;
export const facilitatorPort = appPort + 93;
/** A local MCP Registry the run's INGEST_SOURCES names (tests/e2e/support/upstream-registry.ts). */
export const upstreamRegistryPort = appPort + 92;
