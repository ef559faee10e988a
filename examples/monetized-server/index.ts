// Entry point: `npx tsx examples/monetized-server/index.ts` serves the reference paid MonetizedMCP server
// on http://127.0.0.1:8080/mcp. Environment: PORT, HOST, SERVER_WALLET_ADDRESS, FACILITATOR_URL, NETWORK,
// REFERENCE_JOB_SECONDS, ALLOWED_HOSTS (comma-separated host names besides loopback's); VARIANT picks a test variant.
import { pathToFileURL } from "node:url";
import { startReferenceServer, VARIANTS, type Variant } from "./server";

export {
  createReferenceKit,
  startReferenceServer,
  VARIANTS,
  type ConcurrencyTracker,
  type ReferenceServer,
  type ReferenceServerOptions,
  type Variant,
} from "./server";
export { PAYMENT_METHOD, PLACEHOLDER_WALLET, referenceItems } from "./items";

async function main() {
  const variant = (process.env.VARIANT ?? "reference") as Variant;
  if (!VARIANTS.includes(variant)) throw new Error(`VARIANT must be one of ${VARIANTS.join(", ")}`);
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("PORT must be a port number");
  const server = await startReferenceServer({
    port,
    host: process.env.HOST ?? "127.0.0.1",
    variant,
    walletAddress: process.env.SERVER_WALLET_ADDRESS || undefined,
    facilitatorUrl: process.env.FACILITATOR_URL || undefined,
    network: process.env.NETWORK || undefined,
    allowedHosts: process.env.ALLOWED_HOSTS?.split(",").filter(Boolean),
  });
  console.log(`MonetizedMCP reference server (${variant}) listening on ${server.url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
