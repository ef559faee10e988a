// Whether the database is reachable, as this process last saw it. A query that fails because the server
// is restarting (or refuses connections) marks it down; a background ping every half second marks it up
// again as soon as it answers. While down, proxy.ts answers requests that need the database with a 503 at
// once instead of letting each one fail on its own. The postgres driver opens fresh connections by itself.
import { isDatabaseUnavailable } from "./errors";

type Health = { downSince: number | null; pinging: boolean; ping?: () => Promise<unknown> };

// On globalThis: the proxy, route handlers and pages of one server process share it.
const holder = globalThis as unknown as { __agoraDbHealth?: Health };
const health = (holder.__agoraDbHealth ??= { downSince: null, pinging: false });

const PING_INTERVAL_MS = 500;

export function databaseDown(): boolean {
  return health.downSince !== null;
}

/** Registers how to check the database (db/index.ts: `select 1` on the app's pool). */
export function setHealthPing(ping: () => Promise<unknown>): void {
  health.ping = ping;
}

/** Called with any failure; only "cannot reach the database" ones mark it down. Returns whether it did. */
export function reportDatabaseFailure(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  health.downSince ??= Date.now();
  if (!health.pinging && health.ping) {
    health.pinging = true;
    void pingUntilUp();
  }
  return true;
}

async function pingUntilUp(): Promise<void> {
  for (;;) {
    await new Promise((r) => setTimeout(r, PING_INTERVAL_MS).unref());
    try {
      await health.ping!();
      health.downSince = null;
      health.pinging = false;
      return;
    } catch {
      // still down
    }
  }
}
