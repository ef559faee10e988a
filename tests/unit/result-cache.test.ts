// lib/cache/result-cache.ts: the in-process cache behind the search. It keeps results within a
// byte budget and a lifetime, shares a load in progress, and never keeps the async context (the request) a result
// was loaded in.
import { AsyncLocalStorage } from "node:async_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { createResultCache } from "@/lib/cache/result-cache";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe("result cache", () => {
  it("shares one load between concurrent callers and answers repeats from memory until the lifetime ends", async () => {
    const cache = createResultCache<string>({ maxEntries: 10, maxBytes: 1_000, ttlMs: 100 });
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 20));
      return "result";
    };
    const [a, b] = await Promise.all([cache.get("k", load), cache.get("k", load)]);
    expect([a.value, b.value, loads]).toEqual(["result", "result", 1]);
    expect((await cache.get("k", load)).hit).toBe(true);
    await new Promise((r) => setTimeout(r, 120));
    expect((await cache.get("k", load)).hit).toBe(false);
    expect(loads).toBe(2);
  });

  it("keeps no failed load", async () => {
    const cache = createResultCache<string>({ maxEntries: 10, maxBytes: 1_000, ttlMs: 10_000 });
    await expect(cache.get("k", () => Promise.reject(new Error("database down")))).rejects.toThrow("database down");
    expect((await cache.get("k", async () => "fine")).value).toBe("fine");
  });

  it("stays within its byte budget and entry count, oldest out first, and keeps nothing larger than the budget", async () => {
    const cache = createResultCache<string>({ maxEntries: 3, maxBytes: 50, ttlMs: 10_000 });
    for (const key of ["a", "b", "c", "d"]) await cache.get(key, async () => key.repeat(10));
    expect(cache.size.entries).toBe(3);
    expect((await cache.get("a", async () => "again")).hit).toBe(false);
    await cache.get("big", async () => "x".repeat(40));
    expect(cache.size.bytes).toBeLessThanOrEqual(50);
    await cache.get("huge", async () => "x".repeat(100));
    expect(cache.size.bytes).toBeLessThanOrEqual(50);
    expect((await cache.get("huge", async () => "x")).hit).toBe(false);
  });

  it("does not keep the request a result was loaded in alive", async () => {
    // A request's context, as Next's AsyncLocalStorage stores hold it, with something large in it.
    const requests = new AsyncLocalStorage<{ body: Uint8Array }>();
    const cache = createResultCache<{ items: string[] }>({ maxEntries: 10, maxBytes: 10_000, ttlMs: 60_000 });
    let request: WeakRef<object> | undefined;
    await requests.run({ body: new Uint8Array(8 * 1024 * 1024) }, async () => {
      request = new WeakRef(requests.getStore()!);
      await cache.get("search", async () => ({ items: ["weather"] }));
    });
    for (let i = 0; i < 5 && request!.deref(); i++) {
      await new Promise((r) => setTimeout(r, 10));
      gc();
    }
    expect(request!.deref(), "the request's context is still reachable from the cache").toBeUndefined();
    expect((await cache.get("search", async () => ({ items: [] }))).value.items).toEqual(["weather"]);
  });
});
