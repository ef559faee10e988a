import type { Uptime } from "@/lib/listings/model";

const DAYS = 30;

/** A 30-day status strip: one bar per UTC day, green when every check passed, amber when some did, grey without checks. */
export function StatusStrip({ uptime, now = new Date() }: { uptime: Uptime; now?: Date }) {
  const byDay = new Map(uptime.daily.map((d) => [d.day, d]));
  const days = Array.from({ length: DAYS }, (_, i) => {
    const date = new Date(now.getTime() - (DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return { date, stats: byDay.get(date) };
  });
  return (
    <div data-testid="status-strip">
      <div
        className="flex h-8 items-end gap-[2px]"
        role="img"
        aria-label={`Availability over the last ${DAYS} days: ${uptime.uptimePct ?? "no"}${uptime.uptimePct === null ? " checks" : "% of checks answered"}`}
      >
        {days.map(({ date, stats }) => {
          const color = !stats
            ? "bg-muted"
            : stats.ok === stats.total
              ? "bg-emerald-500"
              : stats.ok === 0
                ? "bg-red-500"
                : "bg-amber-400";
          return (
            <span
              key={date}
              title={stats ? `${date}: ${stats.ok}/${stats.total} checks answered` : `${date}: not checked`}
              className={`h-full flex-1 rounded-sm ${color}`}
            />
          );
        })}
      </div>
      <div className="mt-1 flex justify-between text-xs text-muted-foreground">
        <span>30 days ago</span>
        <span>today</span>
      </div>
    </div>
  );
}
