// What the app's queries do while PostgreSQL restarts: each gets a deadline, reads ride out a short outage, and
// nothing waits forever.
//
// - postgres.js 3.4.9 can keep a query waiting forever while it reconnects to a server that closes connections
//   during its start-up (porsager/postgres#1193): in the restart soak, requests caught in the first second of an
//   outage got no answer for over 10 s. A query that has not reached a server within the deadline now fails as
//   "unavailable" (the request answers 503).
// - A read whose connection dies under it (the restart ends every session) is asked again until the deadline:
//   a short restart then costs a page a delay instead of a 500 (a page cannot answer 503 once it renders).
//   The first such failure is reported at once, so that new requests get the 503 gate instead of waiting too.
// - Only the wait is bounded: a query that was sent runs to its end or fails with its connection. A query given
//   up on stays in the driver's queue and runs once the server is back: for a read that is harmless; a write is
//   first turned into `select 1`, so that a write its caller was told failed cannot happen later. (The driver's
//   own cancel() cannot be used: a query cancelled while it opens a connection leaves that connection out of the
//   pool for good. Running each write in a transaction instead costs two round trips per write, and puts every
//   write on the driver's rollback path, which throws an uncaught TypeError on a connection the restart closed.)
//   A transaction whose deadline passed before it started does nothing and rolls back.
import type { Sql } from "postgres";
import { isConnectionFailure } from "./errors";

export const CONNECTION_WAIT_TIMEOUT = "CONNECTION_WAIT_TIMEOUT";

export class ConnectionWaitTimeout extends Error {
  readonly code = CONNECTION_WAIT_TIMEOUT;
  constructor(ms: number) {
    super(`No database connection within ${ms} ms`);
    this.name = "ConnectionWaitTimeout";
  }
}

export type DeadlineOptions = {
  /** How long a query may wait for a connection, and a read may keep asking again. */
  ms: number;
  /**
   * Told of connection failures (db/health.ts notes them and starts its ping): the first of a read that is going to
   * ask again, and the one any query or transaction finally fails with (a page that fails on it answers 503).
   */
  onConnectionFailure?: (error: unknown) => void;
};

/** The parts of a postgres.js query this relies on (postgres/cjs/src/query.js, connection.js build()). */
type DriverQuery = PromiseLike<unknown> & {
  /** Set when the query is handed to a connected server; null while it waits in a queue or for a connect. */
  state: unknown;
  /** The statement and its parameters, read when the query is sent (not before). */
  strings: string[];
  args: unknown[];
  values(): DriverQuery;
};

/** What drizzle does with the result of `unsafe()`: maybe `.values()` (rows as arrays), then await it. */
type Pending = PromiseLike<unknown> & { values(): Pending };

type UnsafeArgs = Parameters<Sql["unsafe"]>;

const RETRY_FIRST_DELAY_MS = 100;
const RETRY_MAX_DELAY_MS = 800;

/** The same client, with `unsafe` (every drizzle query) and `begin` (every drizzle transaction) bounded. */
export function withConnectionDeadline<T extends Sql>(sql: T, options: DeadlineOptions): T {
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (...args: UnsafeArgs) =>
          isRead(args[0]) ? readWithin(target, args, options) : writeWithin(target, args, options);
      }
      if (property === "begin") return (...args: unknown[]) => reported(beginWithin(target, args, options.ms), options);
      return Reflect.get(target, property, receiver);
    },
  });
}

/** A statement that cannot write: drizzle's selects, and CTEs that only select. Anything else counts as a write. */
export function isRead(statement: string): boolean {
  const text = statement.trimStart().slice(0, 8).toLowerCase();
  if (text.startsWith("select") || text.startsWith("(select")) return true;
  return text.startsWith("with") && !/\b(insert|update|delete|merge)\b/i.test(statement);
}

/** Runs `run` once, on first await, with the raw flag `.values()` may set before. */
function pending(run: (raw: boolean) => Promise<unknown>): Pending {
  let raw = false;
  let outcome: Promise<unknown> | undefined;
  const self: Pending = {
    values() {
      raw = true;
      return self;
    },
    then(onFulfilled, onRejected) {
      outcome ??= run(raw);
      return outcome.then(onFulfilled, onRejected);
    },
  };
  return self;
}

function readWithin(target: Sql, args: UnsafeArgs, { ms, onConnectionFailure }: DeadlineOptions): Pending {
  return pending(async (raw) => {
    const until = Date.now() + ms;
    let reported = false;
    for (let delay = RETRY_FIRST_DELAY_MS; ; delay = Math.min(delay * 2, RETRY_MAX_DELAY_MS)) {
      try {
        return await sent(issue(target, args, raw), Math.max(1, until - Date.now()));
      } catch (error) {
        if (!isConnectionFailure(error)) throw error;
        const last = Date.now() + delay >= until;
        if (!reported || last) onConnectionFailure?.(error);
        reported = true;
        if (last) throw error;
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  });
}

/**
 * The query's result, or a ConnectionWaitTimeout if it has not reached a server within `ms`; then `giveUp` sees
 * the query, which the driver will still send once it can.
 */
function sent(query: DriverQuery, ms: number, giveUp?: (query: DriverQuery) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (query.state) return; // it reached a server: its connection decides
      giveUp?.(query);
      reject(new ConnectionWaitTimeout(ms));
    }, ms);
    query.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A write outside a transaction: bounded, and made harmless if given up on (it would still be sent later). */
function writeWithin(target: Sql, args: UnsafeArgs, options: DeadlineOptions): Pending {
  return pending((raw) => reported(sent(issue(target, args, raw), options.ms, voidStatement), options));
}

/** The same outcome; a connection failure it ends with is told to `onConnectionFailure` first. */
function reported<T>(outcome: Promise<T>, { onConnectionFailure }: DeadlineOptions): Promise<T> {
  return outcome.catch((error: unknown) => {
    if (isConnectionFailure(error)) onConnectionFailure?.(error);
    throw error;
  });
}

/** The driver's query for drizzle's call, in the row shape drizzle asked for. */
function issue(target: Sql, args: UnsafeArgs, raw: boolean): DriverQuery {
  const query = target.unsafe(...args) as unknown as DriverQuery;
  return raw ? query.values() : query;
}

function voidStatement(query: DriverQuery): void {
  query.strings = ["select 1"];
  query.args = [];
}

function beginWithin(target: Sql, args: unknown[], ms: number): Promise<unknown> {
  const [options, body] = (args.length === 1 ? ["", args[0]] : args) as [string, (tx: Sql) => unknown];
  let started = false;
  let expired = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (started) return;
      expired = true;
      reject(new ConnectionWaitTimeout(ms));
    }, ms);
    target
      .begin(options, (tx) => {
        // The caller was already told it failed: do nothing, and the driver rolls the empty transaction back.
        if (expired) throw new ConnectionWaitTimeout(ms);
        started = true;
        clearTimeout(timer);
        return body(tx as unknown as Sql) as Promise<unknown>;
      })
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });
}
