// Entry point: `npx tsx examples/monetized-server/index.ts` serves the reference MonetizedMCP server
// on http://127.0.0.1:8080/mcp (PORT and HOST change it; VARIANT picks a test variant).
import { pathToFileURL } from "node:url";
import { startReferenceServer, VARIANTS, type Variant } from "./server";

export { startReferenceServer, VARIANTS, type ConcurrencyTracker, type ReferenceServer, type ReferenceServerOptions, type Variant } from "./server";
export { catalogue, PAYMENT_METHOD, WALLET_ADDRESS } from "./catalogue";

async function main() {
  const variant = (process.env.VARIANT ?? "reference") as Variant;
  if (!VARIANTS.includes(variant)) throw new Error(`VARIANT must be one of ${VARIANTS.join(", ")}`);
  const server = await startReferenceServer({
    port: Number(process.env.PORT ?? 8080),
    host: process.env.HOST ?? "127.0.0.1",
    variant,
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
