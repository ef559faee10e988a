// A PostgreSQL server that restarts, seen through a loopback relay: while "starting" it accepts each connection
// and closes it without a word (as a server does during its start-up), which makes postgres.js 3.4.9 reconnect
// in a loop and keep the query waiting forever (porsager/postgres#1193); once "up" it relays to the real server.
// The app's client must answer "unavailable" within its deadline, never apply a write it reported as failed,
// and serve again on its own when the server is back.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { openPostgres, type Connection } from "@/db/connect";
import { isDatabaseUnavailable } from "@/db/errors";
import { newsletterSubscribers } from "@/db/schema";
import { openTestDatabase, type TestConnection } from "../support/databases";

type Relay = {
  port: number;
  mode: "starting" | "up";
  restart(): void;
  /** Stops listening (connections are refused, as while the server is stopped) until `listen()`. */
  refuse(): Promise<void>;
  listen(): Promise<void>;
  close(): Promise<void>;
};

async function startRelay(target: URL): Promise<Relay> {
  const open = new Set<net.Socket>();
  const relay: Relay = {
    port: 0,
    mode: "up",
    restart() {
      relay.mode = "starting";
      for (const socket of open) socket.destroy();
    },
    close: () => {
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    },
    refuse: () => relay.close(),
    listen: () => new Promise<void>((resolve) => server.listen(relay.port, "127.0.0.1", resolve)),
  };
  const server = net.createServer((client) => {
    if (relay.mode === "starting") {
      // FIN right away, as a server starting up does (an RST would be reported as an error instead).
      open.add(client);
      client.on("close", () => open.delete(client)).on("error", () => client.destroy());
      return client.end();
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  relay.port = (server.address() as net.AddressInfo).port;
  relay.mode = "up";
  return relay;
}

async function settled<T>(promise: Promise<T>, ms: number): Promise<"pending" | "settled"> {
  const timer = new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), ms));
  return Promise.race([
    promise.then(
      () => "settled" as const,
      () => "settled" as const,
    ),
    timer,
  ]);
}

describe.runIf(process.env.DATABASE_URL)("queries while PostgreSQL restarts (connection deadline)", () => {
  let database: TestConnection;
  let relay: Relay;
  let app: Connection;
  let viaRelay: string;
  const DEADLINE_MS = 400;
  let connectionFailures = 0;

  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    relay = await startRelay(new URL(database.url!));
    const url = new URL(database.url!);
    url.host = `127.0.0.1:${relay.port}`;
    viaRelay = url.toString();
    app = await openPostgres(viaRelay, {
      max: 2,
      deadline: { ms: DEADLINE_MS, onConnectionFailure: () => connectionFailures++ },
    });
    await app.db.execute(sql`select 1`);
  }, 30_000);

  afterAll(async () => {
    relay.mode = "up";
    await app?.close();
    await relay?.close();
    await database?.close();
  });

  it("asks a read again when its connection dies under it, so a short restart only delays it", async () => {
    connectionFailures = 0;
    const read = app.db.execute(sql`select pg_sleep(0.3), 'still here' as answer`);
    await new Promise((r) => setTimeout(r, 100));
    relay.restart(); // ends the session under the running query
    setTimeout(() => (relay.mode = "up"), 150);
    const rows = (await read) as unknown as { answer: string }[];
    expect(rows[0]?.answer).toBe("still here");
    expect(connectionFailures).toBe(1); // reported once, so the health check can close the 503 gate meanwhile

    // A write is not asked again: its caller learns it failed (it may or may not have been applied).
    const write = app.db.execute(
      sql`insert into newsletter_subscribers (email) select 'cut@example.test' from pg_sleep(0.3)`,
    );
    await new Promise((r) => setTimeout(r, 100));
    relay.restart();
    setTimeout(() => (relay.mode = "up"), 150);
    expect(
      isDatabaseUnavailable(
        await write.then(
          () => null,
          (error: unknown) => error,
        ),
      ),
    ).toBe(true);
    // Reported too: a page that fails on it answers 503 (server/database-answer.mjs reads what db/health.ts noted).
    expect(connectionFailures).toBe(2);
    await app.db.execute(sql`delete from newsletter_subscribers`);
  });

  it("answers 'unavailable' within the deadline, applies none of the failed writes, and serves again once the server is back", async () => {
    relay.restart();

    // Without a deadline the driver keeps the query waiting: the failure this guards against.
    const unbounded = postgres(viaRelay, { max: 1, connect_timeout: 1, onnotice: () => {} });
    const waiting = unbounded.unsafe("select 1");
    expect(await settled(waiting, 2_500)).toBe("pending");

    connectionFailures = 0;
    const started = Date.now();
    const read = await app.db.execute(sql`select 1`).catch((error: unknown) => error);
    const readMs = Date.now() - started;
    expect(isDatabaseUnavailable(read)).toBe(true);
    expect(readMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(readMs).toBeLessThan(DEADLINE_MS + 1_500);

    const write = await app.db
      .insert(newsletterSubscribers)
      .values({ email: "late-write@example.test" })
      .catch((error: unknown) => error);
    expect(isDatabaseUnavailable(write)).toBe(true);

    let bodyRan = false;
    const transaction = await app.db
      .transaction(async (tx) => {
        bodyRan = true;
        await tx.insert(newsletterSubscribers).values({ email: "late-transaction@example.test" });
      })
      .catch((error: unknown) => error);
    expect(isDatabaseUnavailable(transaction)).toBe(true);
    // Each failure its caller met was reported (the read's first one too, before it asked again).
    expect(connectionFailures).toBeGreaterThanOrEqual(3);

    // The server is back: the same client serves again by itself, and keeps serving (no connection lost).
    relay.mode = "up";
    const deadline = Date.now() + 15_000;
    for (;;) {
      const answer = await app.db.execute(sql`select 1 as one`).catch(() => null);
      if (answer) break;
      if (Date.now() > deadline) throw new Error("the client did not recover within 15 s");
      await new Promise((r) => setTimeout(r, 100));
    }
    for (let i = 0; i < 6; i++) await app.db.execute(sql`select ${i}::int as n`);
    await waiting;
    await unbounded.end();
    expect(bodyRan).toBe(false);

    // The writes that timed out never happened, even after the queries that waited were let through; a new one does.
    await new Promise((r) => setTimeout(r, 500));
    const rows = async () => (await app.db.select({ n: count() }).from(newsletterSubscribers))[0]!.n;
    expect(await rows()).toBe(0);
    await app.db.insert(newsletterSubscribers).values({ email: "after@example.test" });
    const [after] = await app.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, "after@example.test"));
    expect(after?.email).toBe("after@example.test");
    expect(await rows()).toBe(1);
  }, 40_000);

  it("opens connections again within a second of the server's return, however long it refused them", async () => {
    await relay.refuse();
    // Six seconds of refused connections: with the driver's default backoff the pool would then wait up to 20 s.
    const until = Date.now() + 6_000;
    while (Date.now() < until) {
      await Promise.all([1, 2].map(() => app.db.execute(sql`select 1`).catch(() => null)));
    }
    await relay.listen();
    const back = Date.now();
    for (;;) {
      if (await app.db.execute(sql`select 1`).catch(() => null)) break;
      if (Date.now() - back > 15_000) throw new Error("no answer within 15 s of the server's return");
    }
    expect(Date.now() - back).toBeLessThan(1_500);
  }, 30_000);
});
