// One "app instance" for the schedule test: runs the app's verification schedule against DATABASE_URL for
// RUN_MS, then prints {runs} as JSON. Two of these on one database must share, not repeat, the runs.
import { openPostgres } from "@/db/connect";
import { startScheduledChecks } from "@/lib/jobs/checks-schedule";

const conn = await openPostgres(process.env.DATABASE_URL!, { max: 2 });
let runs = 0;
const schedule = startScheduledChecks(conn.db, {
  intervalMs: Number(process.env.INTERVAL_MS),
  probe: { allowPrivateHosts: true, timeoutMs: 2_000 },
  onRun: () => runs++,
  onError: (error) => console.error(error),
});
await new Promise((resolve) => setTimeout(resolve, Number(process.env.RUN_MS)));
await schedule.stop();
await conn.close();
console.log(JSON.stringify({ runs }));
