import { afterEach, describe, expect, it, vi } from "vitest";
import { databaseDown, reportDatabaseFailure, setHealthPing } from "@/db/health";

// Failures as the postgres driver reports them under drizzle's "Failed query" wrapper.
const failedQuery = (code: string) =>
  Object.assign(new Error("Failed query: select 1"), { cause: Object.assign(new Error(code), { code }) });
const refused = failedQuery("ECONNREFUSED"); // nothing listens: the server is down
const connectionLost = failedQuery("08006");
const deadConnection = failedQuery("57P01"); // a pooled connection the last restart closed

describe("database health gate", () => {
  afterEach(async () => {
    // Let any ping loop of the test finish with the database up, so the next test starts open.
    setHealthPing(async () => {});
    await vi.advanceTimersByTimeAsync(3_000).catch(() => {});
    vi.useRealTimers();
  });

  it("closes when a failure is confirmed by a ping that cannot get through, and reopens when the ping answers", async () => {
    vi.useFakeTimers();
    let up = false;
    setHealthPing(async () => {
      if (!up) throw refused;
    });
    expect(reportDatabaseFailure(new Error("syntax error"))).toBe(false);
    expect(databaseDown()).toBe(false);
    expect(reportDatabaseFailure(connectionLost)).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(databaseDown()).toBe(true);
    await vi.advanceTimersByTimeAsync(5_000); // still down: the pings keep the gate closed past its 3 s
    expect(databaseDown()).toBe(true);
    up = true;
    await vi.advanceTimersByTimeAsync(600);
    expect(databaseDown()).toBe(false);
  });

  it("stays open when one query fails on a connection the restart closed but the database answers", async () => {
    vi.useFakeTimers();
    setHealthPing(async () => {});
    expect(reportDatabaseFailure(deadConnection)).toBe(true); // that request still gets its 503
    await vi.advanceTimersByTimeAsync(0);
    expect(databaseDown()).toBe(false);
  });

  it("asks again when the ping itself lands on a dead pooled connection", async () => {
    vi.useFakeTimers();
    let pings = 0;
    setHealthPing(async () => {
      pings += 1;
      if (pings <= 2) throw deadConnection;
    });
    reportDatabaseFailure(deadConnection);
    await vi.advanceTimersByTimeAsync(0);
    expect(pings).toBe(3);
    expect(databaseDown()).toBe(false);
  });

  it("lapses on its own when the ping never answers, so a lost ping cannot keep the site on 503", async () => {
    vi.useFakeTimers();
    let hang = false;
    setHealthPing(() => (hang ? new Promise(() => {}) : Promise.reject(refused)));
    reportDatabaseFailure(refused);
    await vi.advanceTimersByTimeAsync(0);
    expect(databaseDown()).toBe(true);
    hang = true;
    await vi.advanceTimersByTimeAsync(3_100);
    expect(databaseDown()).toBe(false);
  });
});
