// Whether the database is reachable, as this process last saw it. While it is down, proxy.ts answers
// requests that need the database with a 503 at once instead of letting each one fail on its own.
//
// A failed query alone does not say the database is down: after a restart the pool still holds connections the
// old server closed, and each fails once (57P01) when next used while the new server answers fine. So a failure
// starts a ping, and only a ping that cannot get through (connection refused, server starting) closes the gate;
// a ping that lands on such a dead connection is tried again at once on another. While down, a ping every half
// second reopens the gate as soon as one answers. The postgres driver opens fresh connections by itself.
import { isDatabaseUnavailable, isDeadConnection } from "./errors";
import { processState } from "./process-state";

type Health = {
  downSince: number | null;
  lastFailureAt: number;
  checking: boolean;
  ping?: () => Promise<unknown>;
  /**
   * When a query last failed because the database could not be reached (a terminated connection, no connection
   * within the deadline), gate or no gate. server/database-answer.mjs reads it: a page that failed on such a
   * query answers 503 with Retry-After instead of Next's 500.
   */
  lastUnavailableAt: number;
};

// On globalThis: the proxy, route handlers and pages of one server process share it.
// server/database-answer.mjs and server/static-fast-path.mjs read it under the same key (Symbol.for("agora.db-health")).
const health = processState<Health>("db-health", () => ({
  downSince: null,
  lastFailureAt: 0,
  checking: false,
  lastUnavailableAt: 0,
}));

const PING_INTERVAL_MS = 500;
const PING_TIMEOUT_MS = 2_000;
const PING_TRIES = 5;
// The gate lapses this long after the last failed ping: a ping that never gets an answer (or a process where
// nothing registered one) cannot keep answering 503 after the database is back. While it is still down, the
// next real query fails, starts a ping and closes the gate again.
const GATE_MS = 3_000;

export function databaseDown(): boolean {
  if (health.downSince === null) return false;
  return Date.now() - health.lastFailureAt < GATE_MS;
}

/** Registers how to check the database (lib/database.ts: `select 1` on the app's pool). */
export function setHealthPing(ping: () => Promise<unknown>): void {
  health.ping = ping;
}

/** Called with any failure; only "cannot reach the database" ones count. Returns whether it was one. */
export function reportDatabaseFailure(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  suspectDatabase();
  return true;
}

/**
 * A query lost its connection or found none: noted for server/database-answer.mjs, and a ping learns whether the
 * database is down (db/connection-deadline.ts).
 */
export function suspectDatabase(): void {
  health.lastUnavailableAt = Date.now();
  if (!health.ping) markDown();
  else if (!health.checking) {
    health.checking = true;
    void checkUntilUp();
  }
}

function markDown(): void {
  health.downSince ??= Date.now();
  health.lastFailureAt = Date.now();
}

async function checkUntilUp(): Promise<void> {
  try {
    for (;;) {
      const answer = await pingOnce();
      if (answer === "up") {
        health.downSince = null;
        return;
      }
      if (answer === "down") markDown();
      // "unknown" (no answer in time) leaves the gate to lapse on its own.
      else if (!databaseDown()) return;
      await new Promise((r) => setTimeout(r, PING_INTERVAL_MS).unref());
    }
  } finally {
    health.checking = false;
  }
}

async function pingOnce(): Promise<"up" | "down" | "unknown"> {
  for (let attempt = 0; attempt < PING_TRIES; attempt++) {
    let timer: NodeJS.Timeout | undefined;
    try {
      const late = new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error("ping timed out")), PING_TIMEOUT_MS).unref()),
      );
      await Promise.race([health.ping!(), late]);
      return "up";
    } catch (error) {
      if (error instanceof Error && error.message === "ping timed out") return "unknown";
      // A connection the last restart closed: the pool replaces it, so ask again.
      if (isDeadConnection(error)) continue;
      return isDatabaseUnavailable(error) ? "down" : "up";
    } finally {
      clearTimeout(timer);
    }
  }
  return "down";
}
