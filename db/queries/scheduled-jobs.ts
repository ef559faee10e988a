// Claims and releases scheduled jobs, so that of several app instances on one database exactly one runs
// each due job. Every time comparison uses the database's clock, never an instance's.
import { and, eq, sql } from "drizzle-orm";
import { scheduledJobs } from "../schema";
import type { Db } from "../types";

const ms = (n: number) => sql`(${Math.round(n)} * interval '1 millisecond')`;

/**
 * Claims `name` for `holder` when it is due and nobody holds it; the next run becomes due `intervalMs`
 * after this one starts. One statement, so two instances racing for it cannot both win. Returns the
 * run's number, or null when the job is not due or another instance holds it.
 */
export async function claimJob(
  db: Db,
  name: string,
  holder: string,
  intervalMs: number,
  leaseMs: number,
): Promise<number | null> {
  const [claimed] = await db
    .insert(scheduledJobs)
    .values({
      name,
      holder,
      leaseUntil: sql`now() + ${ms(leaseMs)}`,
      nextRunAt: sql`now() + ${ms(intervalMs)}`,
      lastStartedAt: sql`now()`,
      runs: 1,
    })
    .onConflictDoUpdate({
      target: scheduledJobs.name,
      set: {
        holder,
        leaseUntil: sql`now() + ${ms(leaseMs)}`,
        nextRunAt: sql`now() + ${ms(intervalMs)}`,
        lastStartedAt: sql`now()`,
        runs: sql`${scheduledJobs.runs} + 1`,
      },
      setWhere: sql`${scheduledJobs.nextRunAt} <= now() and ${scheduledJobs.leaseUntil} <= now()`,
    })
    .returning({ runs: scheduledJobs.runs });
  return claimed ? claimed.runs : null;
}

/** Ends `holder`'s lease so the next due run need not wait for it to expire. */
export async function releaseJob(db: Db, name: string, holder: string): Promise<void> {
  await db
    .update(scheduledJobs)
    .set({ leaseUntil: sql`now()`, lastFinishedAt: sql`now()` })
    .where(and(eq(scheduledJobs.name, name), eq(scheduledJobs.holder, holder)));
}

/** Ends `holder`'s lease only while it still holds one (a run cut short at shutdown); a finished run is untouched. */
export async function releaseJobIfHeld(db: Db, name: string, holder: string): Promise<void> {
  await db
    .update(scheduledJobs)
    .set({ leaseUntil: sql`now()` })
    .where(
      and(eq(scheduledJobs.name, name), eq(scheduledJobs.holder, holder), sql`${scheduledJobs.leaseUntil} > now()`),
    );
}

/**
 * Takes `name`'s lease for `holder` now, due or not, when nobody holds it (a run started by hand): while it is
 * held the schedule cannot claim the job, and the schedule's run blocks this. Does not move the next run.
 * Returns false when another holder has it.
 */
export async function takeLease(db: Db, name: string, holder: string, leaseMs: number): Promise<boolean> {
  const [taken] = await db
    .insert(scheduledJobs)
    .values({
      name,
      holder,
      leaseUntil: sql`now() + ${ms(leaseMs)}`,
      nextRunAt: sql`now()`,
      lastStartedAt: sql`now()`,
      runs: 0,
    })
    .onConflictDoUpdate({
      target: scheduledJobs.name,
      set: { holder, leaseUntil: sql`now() + ${ms(leaseMs)}` },
      setWhere: sql`${scheduledJobs.leaseUntil} <= now()`,
    })
    .returning({ holder: scheduledJobs.holder });
  return taken?.holder === holder;
}

/** Whether somebody holds `name`'s lease now. */
export async function leaseHeld(db: Db, name: string): Promise<boolean> {
  const [row] = await db
    .select({ held: sql<boolean>`${scheduledJobs.leaseUntil} > now()` })
    .from(scheduledJobs)
    .where(eq(scheduledJobs.name, name));
  return Boolean(row?.held);
}
