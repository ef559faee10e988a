// A bound on concurrent password hashing. Each scrypt takes 32 MiB and ~100 ms of a core; without a bound,
// a burst of failed sign-ins (160 at once) queues on libuv's thread pool and every other request that needs
// it (DNS, files, other hashes) waits behind them. A few run at once, a short queue waits, the rest are
// refused at once with 503 and Retry-After, which costs nothing.
import { ApiError } from "@/lib/errors";

export type Slots = { run<T>(task: () => Promise<T>): Promise<T>; readonly active: number; readonly waiting: number };

export const BUSY_MESSAGE = "Too many sign-ins are being checked right now. Please try again in a moment.";

export function createSlots(concurrency: number, maxQueue: number, retryAfterSeconds = 2): Slots {
  let active = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };
  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < concurrency) active++;
      else if (queue.length < maxQueue) await new Promise<void>((resolve) => queue.push(resolve));
      else throw new ApiError(503, BUSY_MESSAGE, undefined, { "Retry-After": String(retryAfterSeconds) });
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

/** Two hashes at a time (the machine's cores), 32 waiting; past that, 503 at once. */
export const hashSlots = createSlots(2, 32);
