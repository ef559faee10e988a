// A client cannot choose the address its requests are counted under. The preload
// (server/client-address.mjs, loaded here as `next start` loads it) stamps the TCP peer's address, and the
// real route handler is driven over real HTTP on loopback, so every header a client can send is in play.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import "../../server/client-address.mjs";
import { setDatabase } from "@/lib/database";
import { countHit } from "@/db/queries/rate-limits";
import { reloadEnv } from "@/lib/env";
import { keyOf, limits, enforceLimit } from "@/lib/rate-limit";
import { purgeExpiredLimits } from "@/db/queries/rate-limits";
import { POST as register } from "@/app/api/auth/register/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { serveRoute } from "../support/route-server";
import { setAuthEnv, uniqueEmail } from "../support/route-client";

describe.each(drivers())("client address and rate-limit keys on %s", (driver) => {
  let conn: TestConnection;
  let server: Awaited<ReturnType<typeof serveRoute>>;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    server = await serveRoute({ POST: register });
  });
  afterAll(async () => {
    await server?.close();
    await conn?.close();
  });
  beforeEach(async () => {
    setAuthEnv();
    delete process.env.TRUSTED_PROXY_HOPS;
    reloadEnv();
    await conn.db.execute(sql`delete from rate_limits`);
  });

  const registerOnce = (headers: Record<string, string>) =>
    fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ email: uniqueEmail("xff"), password: "correct horse battery", name: "Rotating" }),
    });

  it("counts rotating X-Forwarded-For and forged internal headers against the connection's address", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      statuses.push(
        (
          await registerOnce({
            "x-forwarded-for": `203.0.113.${i}`,
            "x-real-ip": `198.51.100.${i}`,
            "x-agora-client-address": `192.0.2.${i}`,
          })
        ).status,
      );
    }
    // registrationsPerIp allows 5 an hour: the sixth is refused although every header differed.
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it("behind TRUSTED_PROXY_HOPS=1 counts the address the proxy appended, not what the client wrote before it", async () => {
    process.env.TRUSTED_PROXY_HOPS = "1";
    reloadEnv();
    const forged: number[] = [];
    for (let i = 1; i <= 6; i++)
      forged.push((await registerOnce({ "x-forwarded-for": `10.9.9.${i}, 203.0.113.50` })).status);
    expect(forged).toEqual([201, 201, 201, 201, 201, 429]);
    // Another client behind the same proxy is a different address.
    expect((await registerOnce({ "x-forwarded-for": "203.0.113.51" })).status).toBe(201);
  });

  it("keeps keys short and fixed-length whatever the subject, so a 3 KB header is no 500", async () => {
    process.env.TRUSTED_PROXY_HOPS = "1";
    reloadEnv();
    const res = await registerOnce({ "x-forwarded-for": "9".repeat(3000) });
    expect(res.status).toBe(201);
    const long = keyOf(limits.resetRequestsPerAccount, `${"a".repeat(3000)}@example.com`);
    expect(long.length).toBeLessThan(80);
    await enforceLimit(conn.db, { ...limits.resetRequestsPerAccount }, `${"a".repeat(3000)}@example.com`);
    const keys = await conn.db.execute<{ key: string }>(sql`select key from rate_limits`);
    const rows = (Array.isArray(keys) ? keys : (keys as unknown as { rows: { key: string }[] }).rows) as {
      key: string;
    }[];
    expect(rows.every((r) => r.key.length < 80)).toBe(true);
  });

  it("counts an IPv6 client per /64", () => {
    expect(keyOf(limits.mcpPerIp, "2001:db8:1:2::1")).toBe(keyOf(limits.mcpPerIp, "2001:db8:1:2:ffff::9"));
    expect(keyOf(limits.mcpPerIp, "2001:db8:1:2::1")).not.toBe(keyOf(limits.mcpPerIp, "2001:db8:1:3::1"));
  });

  it("purges rows whose window has ended and keeps live ones", async () => {
    await countHit(conn.db, "test:expired", 1);
    await countHit(conn.db, "test:live", 3600);
    await conn.db.execute(
      sql`update rate_limits set reset_at = now() - interval '1 minute' where key = 'test:expired'`,
    );
    expect(await purgeExpiredLimits(conn.db)).toBe(1);
    const left = await conn.db.execute<{ key: string }>(sql`select key from rate_limits order by key`);
    const rows = (Array.isArray(left) ? left : (left as unknown as { rows: { key: string }[] }).rows) as {
      key: string;
    }[];
    expect(rows.map((r) => r.key)).toEqual(["test:live"]);
  });
});
