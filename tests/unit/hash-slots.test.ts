// Bounded password hashing (issue 15): a burst runs two at a time, a short queue waits, the rest get 503 at once.
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { createSlots, hashSlots } from "@/lib/auth/hash-slots";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";

describe("hash slots", () => {
  it("runs at most `concurrency` tasks, queues up to the limit and refuses the rest immediately", async () => {
    const slots = createSlots(2, 3);
    let running = 0;
    let peak = 0;
    const task = async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 30));
      running--;
      return "done";
    };
    const started = performance.now();
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => slots.run(task)));
    expect(peak).toBe(2);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(5);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected").map((o) => o.reason);
    expect(refused).toHaveLength(3);
    for (const error of refused) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 503, headers: { "Retry-After": "2" } });
    }
    expect(performance.now() - started).toBeLessThan(1000);
    expect(slots.active).toBe(0);
  });

  it("bounds real password checks: a burst of 60 never runs more than two scrypts at once", async () => {
    const stored = await hashPassword("correct horse battery staple");
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, hashSlots.active)), 1);
    const outcomes = await Promise.allSettled(Array.from({ length: 60 }, () => verifyPassword("wrong password", stored)));
    clearInterval(watch);
    expect(peak).toBeLessThanOrEqual(2);
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(refused.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status === "fulfilled").length).toBeGreaterThanOrEqual(34);
    expect(hashSlots.active + hashSlots.waiting).toBe(0);
  });
});
