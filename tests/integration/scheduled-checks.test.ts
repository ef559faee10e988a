// The app's own verification schedule, against a real reference MCP server on loopback that goes away and
// comes back, and two app processes sharing one PostgreSQL database.
import { execFile } from "node:child_process";
import net from "node:net";
import { promisify } from "node:util";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findListingView } from "@/lib/listings/lookup";
import { insertListing } from "@/lib/listings/write";
import { PROBES_PER_HOUR } from "@/db/queries/probes";
import { claimJob, releaseJob } from "@/db/queries/scheduled-jobs";
import { listingProbes, listings, scheduledJobs } from "@/db/schema";
import type { Db } from "@/db/types";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server";
import { startScheduledChecks, CHECK_JOB } from "@/lib/jobs/checks-schedule";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

const run = promisify(execFile);

async function waitFor(check: () => Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not within ${withinMs} ms`);
}

describe.each(drivers())("scheduled checks on %s", (driver) => {
  let conn: TestConnection;
  beforeAll(async () => {
    conn = await openTestDatabase(driver);
  });
  afterAll(async () => conn?.close());

  it("stopping at shutdown checks no further listing and releases the lease of a run still in progress", async () => {
    // Two listings whose server reads the request and never answers: the first check hangs, the second must never start.
    const sockets = new Set<net.Socket>();
    const paths = new Set<string>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.once("data", (chunk: Buffer) => paths.add(chunk.toString().split(" ")[1] ?? ""));
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    const db: Db = conn.db;
    for (const path of ["first", "second"]) {
      await insertListing(db, {
        name: `Silent ${path}`,
        description: "Reads the request, then says nothing.",
        categories: ["Data"],
        serverUrl: `http://127.0.0.1:${port}/${path}`,
        status: "approved",
      });
    }
    // No onRun or onError: a schedule checks listings whether or not anyone listens to its results.
    const schedule = startScheduledChecks(db, {
      intervalMs: 60_000,
      probe: { allowPrivateHosts: true, timeoutMs: 30_000, concurrency: 1 },
    });
    const job = async () => (await db.select().from(scheduledJobs).where(eq(scheduledJobs.name, CHECK_JOB)))[0]!;
    try {
      await waitFor(async () => paths.size > 0, 10_000);
      expect((await job()).leaseUntil.getTime()).toBeGreaterThan(Date.now());
      const started = Date.now();
      await schedule.stop({ waitMs: 300 });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await job()).holder).toBe(schedule.holder);
      expect((await job()).leaseUntil.getTime()).toBeLessThanOrEqual(Date.now());
      // Another instance may take the next due run at once instead of waiting out a 30-minute lease.
      await db.update(scheduledJobs).set({ nextRunAt: new Date(0) });
      expect(await claimJob(db, CHECK_JOB, "another instance", 60_000, 60_000)).not.toBeNull();
      // The hanging check ends (its server goes away); the stopped run moves on to no other listing.
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(paths.size).toBe(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await db.delete(listings);
      await db.delete(scheduledJobs);
    }
  });

  it("lets one claimant run a due job; the next run is due an interval later; a held lease blocks others", async () => {
    const db: Db = conn.db;
    const [a, b] = await Promise.all([
      claimJob(db, "job-a", "one", 60_000, 60_000),
      claimJob(db, "job-a", "two", 60_000, 60_000),
    ]);
    expect([a, b].filter((r) => r !== null)).toEqual([1]);
    await releaseJob(db, "job-a", a === null ? "two" : "one");
    expect(await claimJob(db, "job-a", "three", 60_000, 60_000)).toBeNull(); // not due for a minute
    // Due at once, but still held: nobody else may start it until the holder releases it.
    expect(await claimJob(db, "job-b", "one", 0, 60_000)).toBe(1);
    expect(await claimJob(db, "job-b", "two", 0, 60_000)).toBeNull();
    await releaseJob(db, "job-b", "one");
    expect(await claimJob(db, "job-b", "two", 0, 60_000)).toBe(2);
  });

  it("takes 'Verified' from a server that stops answering within one interval, and gives it back when it returns", async () => {
    const intervalMs = 700;
    // Generous: a loaded machine must not turn a live server into a timed-out one.
    const probeTimeoutMs = 5_000;
    // One interval, plus the check that notices (a tenth of it), plus one probe timing out, plus slack for a
    // loaded machine; the interval is what the test shows, not the machine's speed.
    const bound = intervalMs + intervalMs / 10 + probeTimeoutMs + 3_000;
    let reference: ReferenceServer = await startReferenceServer({ port: 0 });
    const listing = await insertListing(conn.db, {
      name: "Comes And Goes",
      description: "A reference server that is stopped and restarted.",
      categories: ["Data"],
      serverUrl: reference.url,
      status: "approved",
    });
    const view = () => findListingView(conn.db, listing.id);
    const runs: string[] = [];
    const schedule = startScheduledChecks(conn.db, {
      intervalMs,
      probe: {
        allowPrivateHosts: true,
        timeoutMs: probeTimeoutMs,
        onResult: (_, r) => runs.push(r.reachable ? "up" : `down: ${r.error}`),
      },
      onError: (error) => runs.push(`error: ${String(error)}`),
      onRun: (summary) => runs.push(JSON.stringify(summary)),
    });
    try {
      // The first run starts at once; its cold start (loading the MCP client) is not what this measures.
      await waitFor(async () => (await view())?.verified === true, 15_000).catch(async (error) => {
        throw new Error(
          `${error}; runs: ${runs.join(" | ")}; jobs: ${JSON.stringify(await conn.db.select().from(scheduledJobs))}; listings: ${JSON.stringify(await conn.db.select({ id: listings.id, status: listings.status }).from(listings))}`,
        );
      });
      const firstCheck = (await view())!.probe!.checkedAt;

      await reference.close();
      await waitFor(async () => (await view())?.verified === false, bound);
      const down = (await view())!;
      expect(down.probe).toMatchObject({ reachable: false });
      expect(Date.parse(down.probe!.checkedAt)).toBeGreaterThan(Date.parse(firstCheck));

      reference = await startReferenceServer({ port: reference.port });
      await waitFor(async () => (await view())?.verified === true, bound);
      expect((await view())!.uptime.checks).toBeGreaterThanOrEqual(3);
    } finally {
      await schedule.stop();
      await reference.close();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)("two app processes on one PostgreSQL database", () => {
  let conn: TestConnection;
  let reference: ReferenceServer;
  beforeAll(async () => {
    conn = await openTestDatabase("postgres");
    reference = await startReferenceServer({ port: 0 });
  });
  afterAll(async () => {
    await reference?.close();
    await conn?.close();
  });

  it("run the schedule once per interval between them, not once each", async () => {
    const intervalMs = 1_000;
    const listing = await insertListing(conn.db, {
      name: "Shared Schedule",
      description: "Probed by whichever instance claims the run.",
      categories: ["Data"],
      serverUrl: reference.url,
      status: "approved",
    });
    const env = {
      ...process.env,
      DATABASE_URL: conn.url!,
      INTERVAL_MS: String(intervalMs),
      RUN_MS: "5000",
      PROBE_ALLOW_PRIVATE_HOSTS: "true",
    };
    const instance = () =>
      run(process.execPath, ["--import", "tsx", "tests/support/scheduler-process.ts"], { env, timeout: 60_000 });
    const outputs = await Promise.all([instance(), instance()]);
    const runs = outputs.map((o) => (JSON.parse(o.stdout.trim().split("\n").at(-1)!) as { runs: number }).runs);

    const probes = await conn.db
      .select({ at: listingProbes.checkedAt })
      .from(listingProbes)
      .where(eq(listingProbes.listingId, listing.id))
      .orderBy(asc(listingProbes.checkedAt));
    const [job] = await conn.db.select().from(scheduledJobs).where(eq(scheduledJobs.name, CHECK_JOB));
    // The database counted the same runs the processes did, and every run checked the listing once (the history
    // keeps the newest PROBES_PER_HOUR checks of each clock hour, so five runs a second apart may leave four).
    expect(job!.runs).toBe(runs[0]! + runs[1]!);
    expect(probes.length).toBeLessThanOrEqual(job!.runs);
    expect(probes.length).toBeGreaterThanOrEqual(Math.min(job!.runs, PROBES_PER_HOUR));
    // About five seconds of overlap at one run a second: a handful of runs, never two in one interval.
    expect(job!.runs).toBeGreaterThanOrEqual(3);
    expect(job!.runs).toBeLessThanOrEqual(7);
    const gaps = probes.slice(1).map((p, i) => p.at.getTime() - probes[i]!.at.getTime());
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(intervalMs * 0.9);
  }, 90_000);
});
