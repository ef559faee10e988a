// Which statements the connection deadline may leave to run late (reads) and which it runs in a transaction
// so that a timed-out write can never be applied afterwards (db/connection-deadline.ts).
import { describe, expect, it } from "vitest";
import { ConnectionWaitTimeout, isRead } from "@/db/connection-deadline";
import { isConnectionFailure, isDatabaseUnavailable } from "@/db/errors";

describe("isRead", () => {
  it("counts drizzle's selects and select-only CTEs as reads", () => {
    expect(isRead('select "id", "name" from "listings" where "slug" = $1')).toBe(true);
    expect(isRead("  SELECT 1")).toBe(true);
    expect(isRead("(select 1) union (select 2)")).toBe(true);
    expect(isRead("with ranked as (select id from listings) select * from ranked")).toBe(true);
  });

  it("counts everything else as a write, including CTEs that modify", () => {
    expect(isRead('insert into "newsletter_subscribers" ("email") values ($1)')).toBe(false);
    expect(isRead('update "listings" set "name" = $1')).toBe(false);
    expect(isRead('delete from "sessions" where "expires" < now()')).toBe(false);
    expect(isRead("with gone as (delete from rate_limits returning 1) select count(*) from gone")).toBe(false);
    expect(isRead("WITH x AS (UPDATE listings SET name = 'a' RETURNING id) SELECT id FROM x")).toBe(false);
    expect(isRead("analyze listings")).toBe(false);
  });
});

describe("isConnectionFailure", () => {
  const driverError = (code: string) => Object.assign(new Error(code), { code });

  it("counts the driver's socket errors, which alone do not prove a database failure", () => {
    expect(isConnectionFailure(driverError("ECONNRESET"))).toBe(true);
    expect(isDatabaseUnavailable(driverError("ECONNRESET"))).toBe(false); // a browser hanging up raises it too
    expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: driverError("ECONNRESET") }))).toBe(true);
  });

  it("counts restarts and connection errors, not query errors", () => {
    for (const code of ["57P01", "57P03", "08006", "CONNECTION_CLOSED", "ECONNREFUSED"])
      expect(isConnectionFailure(driverError(code))).toBe(true);
    for (const code of ["23505", "22021", "42P01", "57014"]) expect(isConnectionFailure(driverError(code))).toBe(false);
  });

  it("counts every error the postgres driver raises when connections are ended or cannot be made, as the pages' 503 needs", () => {
    // The driver's own connection errors (postgres/cjs/src/errors.js connection()), the server's ends of a session,
    // and the sockets' failures, as a query meets them.
    const codes = [
      "CONNECTION_ENDED",
      "CONNECTION_DESTROYED",
      "CONNECTION_CLOSED",
      "CONNECT_TIMEOUT",
      "CONNECTION_WAIT_TIMEOUT",
      "57P01",
      "57P02",
      "57P03",
      "53300",
      "08000",
      "08003",
      "08006",
    ];
    const sockets = [
      "ECONNREFUSED",
      "ECONNRESET",
      "EPIPE",
      "ETIMEDOUT",
      "EHOSTUNREACH",
      "ENETUNREACH",
      "ENOTFOUND",
      "EAI_AGAIN",
      "ECONNABORTED",
    ];
    for (const code of [...codes, ...sockets]) {
      expect(isConnectionFailure(driverError(code)), code).toBe(true);
      expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: driverError(code) })), code).toBe(true);
    }
    for (const code of codes) expect(isDatabaseUnavailable(driverError(code)), code).toBe(true);
  });

  it("a query that got no connection in time is a database failure (503)", () => {
    expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: new ConnectionWaitTimeout(4000) }))).toBe(
      true,
    );
  });
});
