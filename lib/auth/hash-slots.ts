// A fair bound on password hashing. Each scrypt takes 32 MiB and ~100 ms of a core; without a bound, a burst
// of failed sign-ins queues on libuv's thread pool and every other request that needs it waits behind them.
// With one plain queue, a burst from many addresses filled it and a person signing in during the burst was
// refused with everyone else. So each check is claimed by a client address and an account, and:
//   - two run at once (the machine's cores), at most one per address and one per account;
//   - the next to run is the claimant whose address has the lowest recent score (then the oldest): one point
//     per check it asked for and one more per wrong password, so addresses that keep trying wait behind
//     everyone else and a fresh sign-in goes first (an attacker refused with 503 still paid for asking). It
//     counts by address, not by account: an account under attack from many addresses must not push its owner
//     back (its attackers already take turns, one check of that account at a time);
//   - when the queue is full, the claimant with the most failures is shed (503), not the newcomer, unless the
//     newcomer is no better; nothing waits longer than a few seconds.
// In a production start the sign-in door (server/overload.mjs) is in front of all this: a password check that
// did not come in through it (a server action posted to a page the door does not know) is refused at once, so
// no path or action can make the site's ordinary places wait on password hashing.
import { ApiError } from "@/lib/errors";
import { logWarn } from "@/lib/log";

const BUSY_MESSAGE = "Too many sign-ins are being checked right now. Please try again in a moment.";

/** Who a hash is for: the client address and, where there is one, the account's email. */
export type Claimant = { address: string; account?: string };

type SlotOptions = {
  concurrency: number;
  maxWaiting: number;
  /** A waiting check is refused after this long (the person retries, rather than watching a spinner). */
  maxWaitMs: number;
  /** Checks and failures older than this no longer count against an address. */
  scoreWindowMs?: number;
  retryAfterSeconds?: number;
  /** Whether the work asking for a slot may have one at all (hashSlots: it came in through the sign-in door). */
  admitted?: () => boolean;
};

type Slots = {
  run<T>(claimant: Claimant, task: () => Promise<T>): Promise<T>;
  /** A check that ended in a wrong password: the address's later checks wait behind others'. */
  recordFailure(claimant: Claimant): void;
  readonly active: number;
  readonly waiting: number;
};

type Waiting = {
  claimant: Claimant;
  score: number;
  since: number;
  start: () => void;
  refuse: (error: ApiError) => void;
};

// Enough for every address of a large attack; the oldest tallies are dropped first.
const MAX_TALLIES = 50_000;

export function createSlots(options: SlotOptions): Slots {
  const {
    concurrency,
    maxWaiting,
    maxWaitMs,
    scoreWindowMs = 15 * 60_000,
    retryAfterSeconds = 2,
    admitted = () => true,
  } = options;
  const busy = () =>
    new ApiError(503, BUSY_MESSAGE, { code: "busy", headers: { "Retry-After": String(retryAfterSeconds) } });
  const scores = scoreBoard(scoreWindowMs);
  const running = runningChecks();
  const queue: Waiting[] = [];

  const release = (c: Claimant) => {
    running.remove(c);
    dispatch();
  };
  // Fills every free slot with the best waiting check that may run now (none of its address or account running).
  function dispatch() {
    while (running.count < concurrency) {
      let next: Waiting | undefined;
      for (const entry of queue) if (running.eligible(entry.claimant) && (!next || better(entry, next))) next = entry;
      if (!next) return;
      remove(queue, next);
      running.add(next.claimant);
      next.start();
    }
  }
  return {
    get active() {
      return running.count;
    },
    get waiting() {
      return queue.length;
    },
    recordFailure: scores.note,
    async run<T>(claimant: Claimant, task: () => Promise<T>): Promise<T> {
      if (!admitted()) throw busy();
      const score = scores.of(claimant); // what the address had asked before this check
      scores.note(claimant);
      // A free slot means no waiting check could take it (dispatch fills slots as soon as one can).
      if (running.count < concurrency && running.eligible(claimant)) {
        running.add(claimant);
      } else {
        makeRoom(queue, maxWaiting, score, busy);
        await waitInQueue(queue, { claimant, score, maxWaitMs, busy }, dispatch);
      }
      try {
        return await task();
      } finally {
        release(claimant);
      }
    },
  };
}

/** The waiting check served first: the lower score, then the one waiting longer. */
const better = (a: Waiting, b: Waiting) => a.score < b.score || (a.score === b.score && a.since < b.since);

function remove(queue: Waiting[], entry: Waiting): void {
  const index = queue.indexOf(entry);
  if (index >= 0) queue.splice(index, 1);
}

/** A full queue sheds its worst check (503), unless the newcomer is no better: then the newcomer is refused. */
function makeRoom(queue: Waiting[], maxWaiting: number, score: number, busy: () => ApiError): void {
  if (queue.length < maxWaiting) return;
  let worst = queue[0];
  for (const entry of queue) if (better(worst, entry)) worst = entry;
  // Ties keep their place: a newcomer no better than the worst waiting check is the one refused.
  if (worst.score <= score) throw busy();
  remove(queue, worst);
  worst.refuse(busy());
}

/** Queues the check until dispatch starts it, or refuses it after maxWaitMs. */
function waitInQueue(
  queue: Waiting[],
  { claimant, score, maxWaitMs, busy }: { claimant: Claimant; score: number; maxWaitMs: number; busy: () => ApiError },
  dispatch: () => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const entry: Waiting = {
      claimant,
      score,
      since: performance.now(),
      start: () => {
        clearTimeout(timer);
        resolve();
      },
      refuse: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    };
    const timer = setTimeout(() => {
      remove(queue, entry);
      reject(busy());
    }, maxWaitMs);
    queue.push(entry);
    dispatch();
  });
}

/** Each address's recent score: a point per check it asked for and per wrong password, forgotten after the window. */
function scoreBoard(scoreWindowMs: number): { of: (c: Claimant) => number; note: (c: Claimant) => void } {
  const tallies = new Map<string, { count: number; since: number }>();
  const of = (c: Claimant) => {
    const tally = tallies.get(c.address);
    if (!tally) return 0;
    if (Date.now() - tally.since > scoreWindowMs) {
      tallies.delete(c.address);
      return 0;
    }
    return tally.count;
  };
  const note = (c: Claimant) => {
    const count = of(c);
    const since = count === 0 ? Date.now() : tallies.get(c.address)!.since;
    tallies.delete(c.address); // re-inserted last: the Map's order is oldest first
    tallies.set(c.address, { count: count + 1, since });
    if (tallies.size > MAX_TALLIES) tallies.delete(tallies.keys().next().value!);
  };
  return { of, note };
}

/** The checks running now: how many, and which addresses and accounts they are for (one of each at a time). */
function runningChecks() {
  const addresses = new Map<string, number>();
  const accounts = new Map<string, number>();
  let count = 0;
  const bump = (map: Map<string, number>, key: string | undefined, by: 1 | -1) => {
    if (!key) return;
    const next = (map.get(key) ?? 0) + by;
    if (next > 0) map.set(key, next);
    else map.delete(key);
  };
  return {
    get count() {
      return count;
    },
    eligible: (c: Claimant) => !addresses.has(c.address) && !(c.account && accounts.has(c.account)),
    add(c: Claimant) {
      count++;
      bump(addresses, c.address, 1);
      bump(accounts, c.account, 1);
    },
    remove(c: Claimant) {
      count--;
      bump(addresses, c.address, -1);
      bump(accounts, c.account, -1);
    },
  };
}

// Set by server/overload.mjs when it bounds the requests (not in development, tests or scripts: no door there).
const DOOR = Symbol.for("agora.sign-in-door");
const REFUSAL_LOG_MS = 60_000;
let lastRefusalLog = 0;

/** True unless the sign-in door is there and the request doing this work did not come in through it. */
function cameThroughDoor(): boolean {
  const door = (globalThis as unknown as Record<symbol, { entered(): boolean } | undefined>)[DOOR];
  if (!door || door.entered()) return true;
  // A client posting a password action to another page, or an action the door does not know yet: say which.
  if (Date.now() - lastRefusalLog >= REFUSAL_LOG_MS) {
    lastRefusalLog = Date.now();
    logWarn(
      "a password check outside the sign-in door was refused (server/sign-in-actions.mjs lists the sign-in actions)",
    );
  }
  return false;
}

/**
 * Two hashes at a time (the machine's cores); up to 256 wait, none longer than 4 s. At ~100 ms a hash that is
 * about 80 served in the window: a fresh claimant is served first, so it waits for at most the two running.
 */
export const hashSlots = createSlots({ concurrency: 2, maxWaiting: 256, maxWaitMs: 4_000, admitted: cameThroughDoor });
