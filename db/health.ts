// Whether the database is reachable, as this process last saw it. A query that fails because the server
// is restarting (or refuses connections) marks it down; a background ping every half second marks it up
// again as soon as it answers. While down, proxy.ts answers requests that need the database with a 503 at
// once instead of letting each one fail on its own. The postgres driver opens fresh connections by itself.
import { isDatabaseUnavailable } from "./errors";

type Health = { downSince: number | null; lastFailureAt: number; pinging: boolean; ping?: () => Promise<unknown> };

// On globalThis: the proxy, route handlers and pages of one server process share it.
const holder = globalThis as unknown as { __agoraDbHealth?: Health };
const health = (holder.__agoraDbHealth ??= { downSince: null, lastFailureAt: 0, pinging: false });

const PING_INTERVAL_MS = 500;
const PING_TIMEOUT_MS = 2_000;
// The gate lapses this long after the last failure seen, ping or no ping: a ping that never gets an answer
// (or a process where nothing registered one) cannot keep answering 503 after the database is back. While
// it is still down, the next real query fails, reports again and closes the gate for another window.
const GATE_MS = 3_000;

export function databaseDown(): boolean {
  if (health.downSince === null) return false;
  return Date.now() - health.lastFailureAt < GATE_MS;
}

/** Registers how to check the database (db/index.ts: `select 1` on the app's pool). */
export function setHealthPing(ping: () => Promise<unknown>): void {
  health.ping = ping;
}

/** Called with any failure; only "cannot reach the database" ones mark it down. Returns whether it did. */
export function reportDatabaseFailure(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  health.downSince ??= Date.now();
  health.lastFailureAt = Date.now();
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
      await Promise.race([health.ping!(), new Promise((_, reject) => setTimeout(() => reject(new Error("ping timed out")), PING_TIMEOUT_MS).unref())]);
      health.downSince = null;
      health.pinging = false;
      return;
    } catch {
      // still down (or the answer is late): the gate keeps lapsing on its own meanwhile
      if (!databaseDown()) {
        health.downSince = null;
        health.pinging = false;
        return;
      }
    }
  }
}
