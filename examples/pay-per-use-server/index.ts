// A kit server selling by use rather than by call, with x402's two newer schemes: `summarise` is metered (priced up
// to $0.10, a cent a page: the buyer signs the maximum and pays what the call used, through x402's upto scheme) and
// `lookup` is sold through a payment channel ($0.001 a call, x402's batch-settlement scheme: the buyer deposits once,
// pays each call with a voucher, and the kit claims the vouchers in one transaction and settles them to its wallet).
// `npm run sandbox` lists it, so a newcomer can buy both with the agent wallet.
// Run alone: `npx tsx examples/pay-per-use-server/index.ts` with PORT, HOST, SERVER_WALLET_ADDRESS and FACILITATOR_URL.
import { pathToFileURL } from "node:url";
import { createMonetizedServer, type MonetizedServer } from "@agora-mcp/server";

type PayPerUseOptions = {
  walletAddress: string;
  facilitatorUrl: string;
  name?: string;
  /** When the kit claims its channels' vouchers; the kit's defaults unless given. */
  claim?: { claimEvery?: number; claimIntervalSeconds?: number };
};

export function createPayPerUseServer(options: PayPerUseOptions): MonetizedServer {
  return createMonetizedServer({
    name: options.name ?? "pay-per-use",
    walletAddress: options.walletAddress,
    facilitatorUrl: options.facilitatorUrl,
    log: () => {},
    logPurchases: false,
    items: [
      {
        id: "summarise",
        name: "Summarise",
        description: "Summarises a document, a cent a page, at most ten pages ($0.10): you pay for the pages read.",
        price: "0.10",
        metered: true,
        params: { pages: "How many pages to read, 0 to 10" },
        handler: ({ pages }, context) => {
          // An example value that is not a number (the site's check sends one) reads three pages.
          const count = /^\d+$/.test(pages ?? "") ? Math.min(Number(pages), 10) : 3;
          context.reportUsage(count / 100);
          return `Summarised ${count} page${count === 1 ? "" : "s"}`;
        },
      },
      {
        id: "lookup",
        name: "Lookup",
        description: "Looks one word up, $0.001 a call, paid through a payment channel.",
        price: "0.001",
        channel: options.claim ?? true,
        params: { word: "The word, e.g. 'agent'" },
        handler: ({ word }) => `${word}: a word looked up in the sandbox's dictionary`,
      },
    ],
  });
}

async function main() {
  const walletAddress = process.env.SERVER_WALLET_ADDRESS;
  const facilitatorUrl = process.env.FACILITATOR_URL;
  if (!walletAddress || !/^0x[0-9a-fA-F]{40}$/.test(walletAddress))
    throw new Error("SERVER_WALLET_ADDRESS must be a 0x address");
  if (!facilitatorUrl) throw new Error("FACILITATOR_URL must name an x402 facilitator");
  const server = await createPayPerUseServer({ walletAddress, facilitatorUrl }).listen({
    port: Number(process.env.PORT ?? 8093),
    host: process.env.HOST ?? "127.0.0.1",
  });
  console.log(`Pay-per-use server listening on ${server.url}`);
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
