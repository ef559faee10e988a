// The sign-ins' own places in front of Next (server/overload.mjs): password checks are slow (~100 ms of a core and
// 32 MiB each, lib/auth/hash-slots.ts) and a burst of them once filled every place of the overload limit, so the
// whole site answered 503 for minutes. Sign-ins now have MAX_IN_FLIGHT_SIGN_INS places of their own,
// taken from no one else, one per client at a time; the rest wait here, before Next, costing a parked socket.
//
// The wait is fair the way the hash queue is: the next to go in is the client with the lowest recent score (one
// point per sign-in it sent, one more per refusal it got: 401 or 429), so addresses that keep failing wait behind
// everyone else and a person signing in goes first. Among equal scores the oldest goes first, unless the oldest has
// waited past a second (a burst from fresh addresses): then the newest, whose sender is still there to be served
// (the oldest ones are near their deadline either way). A full queue sheds its worst waiting entry for a better
// newcomer, and nothing waits longer than MAX_WAIT_MS: both answer 503 with Retry-After.

const MAX_WAITING = 64;
const MAX_WAIT_MS = 4_000;
const LIFO_AFTER_MS = 1_000;
const SCORE_WINDOW_MS = 15 * 60_000;
const MAX_TALLIES = 50_000;

/**
 * `start(entry)` hands a sign-in to Next; `refuse(entry)` answers it 503. Returns `admit(entry)` for a new sign-in
 * ({key, req, res}) and `running`/`waiting` counts.
 */
export function createSignInDoor({ places, start, refuse, canStart = () => true }) {
  const scores = scoreBoard();
  const runningByClient = new Map();
  const queue = [];
  let running = 0;

  const eligible = (entry) => !runningByClient.has(entry.key) && canStart(entry.key);

  // Lets the sign-in through to Next; its place is given back (and the next one let in) when its answer closes.
  function go(entry) {
    running++;
    runningByClient.set(entry.key, (runningByClient.get(entry.key) ?? 0) + 1);
    entry.res.once("finish", () => {
      if (entry.res.statusCode === 401 || entry.res.statusCode === 429) scores.add(entry.key, 1);
    });
    entry.res.once("close", () => {
      running--;
      const n = runningByClient.get(entry.key) - 1;
      if (n > 0) runningByClient.set(entry.key, n);
      else runningByClient.delete(entry.key);
      dispatch();
    });
    start(entry);
  }

  function dispatch() {
    while (running < places) {
      const next = best(queue, eligible);
      if (!next) return;
      leave(queue, next);
      go(next);
    }
  }

  return {
    admit(entry) {
      entry.score = scores.of(entry.key);
      entry.since = performance.now();
      scores.add(entry.key, 1);
      if (running < places && queue.length === 0 && eligible(entry)) go(entry);
      else wait(queue, entry, refuse);
      dispatch();
    },
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
  };
}

function leave(queue, entry) {
  const i = queue.indexOf(entry);
  if (i >= 0) queue.splice(i, 1);
  clearTimeout(entry.timer);
}

/** Queues a sign-in, shedding the worst waiting one for a better newcomer when full; refused after MAX_WAIT_MS. */
function wait(queue, entry, refuse) {
  if (queue.length >= MAX_WAITING) {
    const last = worst(queue);
    // A newcomer no better than the worst waiting entry is the one refused.
    if (last.score <= entry.score) return refuse(entry);
    leave(queue, last);
    refuse(last);
  }
  entry.timer = setTimeout(() => {
    leave(queue, entry);
    refuse(entry);
  }, MAX_WAIT_MS);
  // A client that gives up while waiting leaves the queue.
  entry.res.once("close", () => leave(queue, entry));
  queue.push(entry);
}

/** Each client's recent points (a sign-in sent, a refusal got), forgotten after SCORE_WINDOW_MS. */
function scoreBoard() {
  const tallies = new Map();
  const of = (key) => {
    const tally = tallies.get(key);
    if (!tally || Date.now() - tally.since > SCORE_WINDOW_MS) return 0;
    return tally.points;
  };
  const add = (key, points) => {
    const tally = tallies.get(key);
    const fresh = !tally || Date.now() - tally.since > SCORE_WINDOW_MS;
    tallies.delete(key); // re-inserted last: the Map's order is oldest first
    tallies.set(key, { points: (fresh ? 0 : tally.points) + points, since: fresh ? Date.now() : tally.since });
    if (tallies.size > MAX_TALLIES) tallies.delete(tallies.keys().next().value);
  };
  return { of, add };
}

/** The waiting entry to go next: lowest score; among equals FIFO, or LIFO once the oldest has waited too long. */
function best(queue, eligible) {
  const now = performance.now();
  const lifo = queue.length > 0 && now - queue[0].since > LIFO_AFTER_MS;
  let next;
  for (const entry of queue) {
    if (!eligible(entry)) continue;
    if (!next || entry.score < next.score || (lifo && entry.score === next.score)) next = entry;
  }
  return next;
}

/** The waiting entry a full queue sheds first: the highest score, then the newest. */
function worst(queue) {
  let last = queue[0];
  for (const e of queue) if (e.score > last.score || (e.score === last.score && e.since > last.since)) last = e;
  return last;
}
