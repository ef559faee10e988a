// npm run sales:index — one run of the sales indexer over every network CHAIN_RPC_URLS names, against the
// configured database, printing what it read. With PGlite, stop the app first (one process per data directory).
// Exits non-zero when a network's RPC failed (its cursor stays where it was) or the database did.
import { openConfiguredDatabase, settingsOrExit } from "./support/database";
import { logError } from "@/lib/log";
import { indexAllSales } from "@/lib/jobs/sales-run";

let exitCode = 0;
try {
  const { CHAIN_RPC_URLS } = settingsOrExit();
  if (!CHAIN_RPC_URLS) {
    console.log(
      "CHAIN_RPC_URLS is not set: no chain to read (e.g. CHAIN_RPC_URLS=eip155:84532=https://sepolia.base.org).",
    );
  } else {
    const conn = await openConfiguredDatabase();
    try {
      for (const n of (await indexAllSales(conn.db)).networks) {
        if ("error" in n) {
          console.log(`${n.network}: failed, cursor unchanged: ${n.error}`);
          exitCode = 1;
        } else
          console.log(
            `${n.network}: blocks ${n.from ?? "-"}–${n.to ?? "-"}, ${n.payees} payees, ${n.added} sales added, ${n.removed} removed`,
          );
      }
    } finally {
      await conn.close();
    }
  }
} catch (error) {
  logError("sales indexing failed", error);
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
}
process.exit(exitCode);
