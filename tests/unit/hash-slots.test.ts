// Fair, bounded password hashing: a burst of failed sign-ins from many addresses cannot keep
// a person with the right password out; failing addresses and accounts wait behind everyone else.
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { createSlots, hashSlots } from "@/lib/auth/hash-slots";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tracker() {
  const running = new Map<string, number>();
  let peak = 0;
  let peakPerKey = 0;
  const order: string[] = [];
  const task =
    (key: string, ms = 20) =>
    async () => {
      running.set(key, (running.get(key) ?? 0) + 1);
      peakPerKey = Math.max(peakPerKey, running.get(key)!);
      peak = Math.max(
        peak,
        [...running.values()].reduce((a, b) => a + b, 0),
      );
      order.push(key);
      await sleep(ms);
      running.set(key, running.get(key)! - 1);
      return key;
    };
  return {
    task,
    order,
    get peak() {
      return peak;
    },
    get peakPerKey() {
      return peakPerKey;
    },
  };
}

describe("fair hash slots", () => {
  it("runs two at once, never two for one address or one account, and refuses past the queue with 503", async () => {
    const slots = createSlots({ concurrency: 2, maxWaiting: 3, maxWaitMs: 5_000 });
    const t = tracker();
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 4 }, () => slots.run({ address: "10.0.0.1" }, t.task("10.0.0.1"))),
      ...Array.from({ length: 4 }, (_, i) =>
        slots.run({ address: `10.0.1.${i}`, account: "victim@example.com" }, t.task("victim")),
      ),
    ]);
    expect(t.peak).toBeLessThanOrEqual(2);
    expect(t.peakPerKey).toBe(1);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected").map((o) => o.reason);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(5);
    for (const error of refused) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 503, headers: { "Retry-After": "2" } });
    }
    expect(slots.active + slots.waiting).toBe(0);
  });

  it("serves a fresh address before addresses that keep failing, even when they guess its own account", async () => {
    const slots = createSlots({ concurrency: 1, maxWaiting: 50, maxWaitMs: 5_000 });
    const t = tracker();
    for (let i = 0; i < 20; i++) {
      slots.recordFailure({ address: `10.0.2.${i}` });
    }
    // The attackers all guess the person's own account: that must not push its owner back.
    const burst = Array.from({ length: 20 }, (_, i) =>
      slots.run({ address: `10.0.2.${i}`, account: "me@example.com" }, t.task(`attacker-${i}`)),
    );
    await sleep(5);
    const person = slots.run({ address: "10.0.9.9", account: "me@example.com" }, t.task("person"));
    await Promise.all([...burst, person]);
    // The first attacker was already running when the person arrived; the person is next, then the others in
    // the order they came (one failure each).
    expect(t.order).toEqual(["attacker-0", "person", ...Array.from({ length: 19 }, (_, i) => `attacker-${i + 1}`)]);
  });

  it("sheds the worst waiting claimant for a better newcomer, and refuses a newcomer no better than the worst", async () => {
    const slots = createSlots({ concurrency: 1, maxWaiting: 3, maxWaitMs: 5_000 });
    const t = tracker();
    for (const a of ["a", "b", "c", "d"]) slots.recordFailure({ address: a });
    slots.recordFailure({ address: "c" });
    const running = slots.run({ address: "a" }, t.task("a", 40));
    const waiting = ["b", "c", "d"].map((a) => slots.run({ address: a }, t.task(a)));
    const person = slots.run({ address: "fresh" }, t.task("fresh"));
    const outcomes = await Promise.allSettled([running, ...waiting, person]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(t.order).toEqual(["a", "fresh", "b", "d"]);

    const full = createSlots({ concurrency: 1, maxWaiting: 1, maxWaitMs: 5_000 });
    const first = full.run({ address: "x" }, t.task("x", 40));
    const second = full.run({ address: "y" }, t.task("y"));
    await expect(full.run({ address: "z" }, t.task("z"))).rejects.toMatchObject({ status: 503 });
    await Promise.all([first, second]);
  });

  it("refuses a check that waited longer than the bound", async () => {
    const slots = createSlots({ concurrency: 1, maxWaiting: 10, maxWaitMs: 50 });
    const t = tracker();
    const long = slots.run({ address: "a" }, t.task("a", 200));
    const started = performance.now();
    await expect(slots.run({ address: "b" }, t.task("b"))).rejects.toMatchObject({ status: 503 });
    expect(performance.now() - started).toBeLessThan(150);
    await long;
    expect(slots.waiting).toBe(0);
  });

  it("a burst of 60 real wrong-password checks from 60 addresses: two scrypts at once, and the right password gets through", async () => {
    const stored = await hashPassword("correct horse battery staple", { address: "127.0.0.1" });
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, hashSlots.active)), 1);
    // The attackers have failed before (the second minute of an attack); the person signs in from home.
    for (let i = 0; i < 60; i++) hashSlots.recordFailure({ address: `127.0.1.${i}`, account: `guess${i}@example.com` });
    const burst = Array.from({ length: 60 }, (_, i) =>
      verifyPassword("wrong password", stored, { address: `127.0.1.${i}`, account: `guess${i}@example.com` }),
    );
    await sleep(20);
    const started = performance.now();
    const person = await verifyPassword("correct horse battery staple", stored, {
      address: "127.0.2.1",
      account: "me@example.com",
    });
    const waited = performance.now() - started;
    const outcomes = await Promise.allSettled(burst);
    clearInterval(watch);
    expect(person).toBe(true);
    // Two checks already running, then the person's: well under a second, while the burst is still queued.
    expect(waited).toBeLessThan(1_500);
    expect(peak).toBeLessThanOrEqual(2);
    expect(outcomes.filter((o) => o.status === "fulfilled").length).toBeGreaterThan(0);
    expect(hashSlots.active + hashSlots.waiting).toBe(0);
  });
});

describe("hash slots behind the sign-in door", () => {
  const DOOR = Symbol.for("agora.sign-in-door");
  const holder = globalThis as unknown as Record<symbol, { entered(): boolean } | undefined>;

  it("refuses a check that did not come in through the door at once, with 503, and runs one that did", async () => {
    let inside = false;
    holder[DOOR] = { entered: () => inside };
    try {
      const t = tracker();
      const outside = await hashSlots.run({ address: "door-outside" }, t.task("outside")).catch((e: unknown) => e);
      expect(outside).toBeInstanceOf(ApiError);
      expect((outside as ApiError).status).toBe(503);
      expect(t.order).toEqual([]);
      inside = true;
      expect(await hashSlots.run({ address: "door-inside" }, t.task("inside"))).toBe("inside");
    } finally {
      holder[DOOR] = undefined;
    }
  });

  it("hashes as before where there is no door (development, scripts, tests)", async () => {
    expect(holder[DOOR]).toBeUndefined();
    const hash = await hashPassword("no door here", { address: "no-door" });
    expect(await verifyPassword("no door here", hash, { address: "no-door" })).toBe(true);
  });
});
