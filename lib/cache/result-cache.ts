// An in-process cache of settled results: a byte budget, a lifetime, and one load shared by concurrent callers.
//
// Why results and never promises: a promise made while Next handles a request carries that request's async
// context (AsyncLocalStorage keeps its stores on every promise made inside it), and with it the request, its
// render and everything they reference. The search cache kept each cached search's promise, so each of its 300
// entries held a whole page render alive (~1.5 MB): 4,000 distinct searches took the server past 590 MB, and
// with the production heap cap it ran out of memory. A pending load is shared while it runs and
// forgotten once it settles; what stays is the value.
//
// Bounds: at most `maxEntries` values whose sizes (`sizeOf`, in bytes; JSON length by default) add up to at most
// `maxBytes`, each for `ttlMs` after it was loaded. A value larger than the budget is not kept. Entries live in
// load order, which is also expiry order (one lifetime for all), so the oldest go first either way.

type ResultCacheOptions<V> = {
  maxEntries: number;
  maxBytes: number;
  ttlMs: number;
  sizeOf?: (value: V) => number;
};

type Entry<V> = { value: V; bytes: number; expires: number };

export type ResultCache<V> = {
  /** The value for `key`: kept, being loaded by another caller, or loaded now by `load`. */
  get(key: string, load: () => Promise<V>): Promise<{ value: V; hit: boolean }>;
  /** Entries kept, and their bytes. */
  readonly size: { entries: number; bytes: number };
  clear(): void;
};

// Characters of its JSON (a bigint counts as its digits): close to the bytes its strings take, which dominate.
const jsonSize = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v))?.length ?? 0;

export function createResultCache<V>(options: ResultCacheOptions<V>): ResultCache<V> {
  const { maxEntries, maxBytes, ttlMs, sizeOf = jsonSize } = options;
  const entries = new Map<string, Entry<V>>();
  const pending = new Map<string, Promise<V>>();
  let bytes = 0;

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const dropExpired = (now: number) => {
    for (const [key, entry] of entries) {
      if (entry.expires > now) break;
      drop(key);
    }
  };
  const keep = (key: string, value: V) => {
    const size = sizeOf(value);
    if (size > maxBytes) return;
    drop(key);
    entries.set(key, { value, bytes: size, expires: Date.now() + ttlMs });
    bytes += size;
    while (entries.size > maxEntries || bytes > maxBytes) drop(entries.keys().next().value!);
  };

  return {
    async get(key, load) {
      const now = Date.now();
      dropExpired(now);
      const entry = entries.get(key);
      if (entry) return { value: entry.value, hit: true };
      const running = pending.get(key);
      if (running) return { value: await running, hit: true };
      const loading = load();
      pending.set(key, loading);
      try {
        const value = await loading;
        keep(key, value);
        return { value, hit: false };
      } finally {
        pending.delete(key);
      }
    },
    get size() {
      return { entries: entries.size, bytes };
    },
    clear() {
      entries.clear();
      pending.clear();
      bytes = 0;
    },
  };
}
