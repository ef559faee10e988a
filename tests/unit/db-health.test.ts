import { afterEach, describe, expect, it, vi } from "vitest";
import { databaseDown, reportDatabaseFailure, setHealthPing } from "@/db/health";

// A connection failure as the postgres driver reports it (SQLSTATE class 08: connection exception).
const connectionLost = Object.assign(new Error("connection failure"), { code: "08006" });

describe("database health gate", () => {
  afterEach(() => vi.useRealTimers());

  it("closes on a connection failure and reopens when the ping answers", async () => {
    vi.useFakeTimers();
    let up = false;
    setHealthPing(async () => {
      if (!up) throw connectionLost;
    });
    expect(reportDatabaseFailure(new Error("syntax error"))).toBe(false);
    expect(databaseDown()).toBe(false);
    expect(reportDatabaseFailure(connectionLost)).toBe(true);
    expect(databaseDown()).toBe(true);
    up = true;
    await vi.advanceTimersByTimeAsync(600);
    expect(databaseDown()).toBe(false);
  });

  it("lapses on its own when the ping never answers, so a lost ping cannot keep the site on 503", async () => {
    vi.useFakeTimers();
    setHealthPing(() => new Promise(() => {}));
    reportDatabaseFailure(connectionLost);
    expect(databaseDown()).toBe(true);
    await vi.advanceTimersByTimeAsync(3_100);
    expect(databaseDown()).toBe(false);
  });
});
