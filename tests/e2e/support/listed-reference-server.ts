// A production server of its own, on a PostgreSQL database of its own, listing one approved paid reference server
// that has been checked once: for the specs whose scheduled work (checks, test purchases) must run inside a serving
// instance, where the route cache is (the suite's site runs with the schedule off).
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { openPostgres } from "@/db/connect";
import { startReferenceServer } from "@/examples/monetized-server/server";
import { recordCheck } from "@/lib/listings/checks/drift";
import { insertListing } from "@/lib/listings/write";
import { probeServer } from "@/lib/probe";
import { facilitatorPort } from "./ports";
import { createProductionDatabase, startProductionServer, type ProductionServer } from "./production-server";

export type ListedReferenceServer = {
  /** The production server under test. */
  server: ProductionServer;
  /** Takes the listed server down (what the next check finds); `stop` does it otherwise. */
  closeReference: () => Promise<void>;
  /** Stops the production server and the listed server. */
  stop: () => Promise<void>;
};

export async function startListedReferenceServer(options: {
  port: number;
  secret: string;
  listing: { name: string; slug: string; description: string };
  /** The production server's environment past the defaults (schedules, wallets). */
  env: Record<string, string>;
}): Promise<ListedReferenceServer> {
  const production = {
    NODE_ENV: "production",
    AUTH_SECRET: options.secret,
    SITE_URL: `http://127.0.0.1:${options.port}`,
  };
  const url = await createProductionDatabase(
    `agora_${options.listing.slug.replace(/-/g, "_")}_${options.port}`,
    production,
  );
  const payee = privateKeyToAccount(generatePrivateKey()).address;
  const reference = await startReferenceServer({
    port: 0,
    walletAddress: payee,
    facilitatorUrl: `http://127.0.0.1:${facilitatorPort}`,
    name: options.listing.slug,
  });
  let closing: Promise<void> | undefined;
  const closeReference = () => (closing ??= reference.close());
  let server: ProductionServer;
  try {
    const fixtures = await openPostgres(url, { max: 1 });
    try {
      const listing = await insertListing(fixtures.db, {
        ...options.listing,
        categories: ["Data"],
        serverUrl: reference.url,
        websiteUrl: null,
        status: "approved",
        price: null,
      });
      await recordCheck(fixtures.db, listing, await probeServer(reference.url, { allowPrivateHosts: true }));
    } finally {
      await fixtures.close();
    }
    server = await startProductionServer(options.port, {
      ...production,
      DATABASE_URL: url,
      UNSAFE_TEST_MODE: "1",
      PROBE_ALLOW_PRIVATE_HOSTS: "true",
      ...options.env,
    });
  } catch (error) {
    await closeReference();
    throw error;
  }
  return {
    server,
    closeReference,
    stop: async () => {
      await server.stop();
      await closeReference();
    },
  };
}
