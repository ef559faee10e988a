import { formatDay } from "@/lib/dates";

const WIDTH = 300;
const HEIGHT = 64;

/**
 * Sales per day as bars, drawn on the server as SVG (no chart library, no script). Screen readers get the total and
 * the days with sales as text; each bar also carries a tooltip title.
 */
export function SalesChart({ days }: { days: { day: string; sales: number }[] }) {
  if (days.length === 0) return null;
  const most = Math.max(1, ...days.map((d) => d.sales));
  const step = WIDTH / days.length;
  const total = days.reduce((n, d) => n + d.sales, 0);
  const busy = days.filter((d) => d.sales > 0);
  const dayText = (d: { day: string; sales: number }) =>
    `${formatDay(new Date(`${d.day}T00:00:00Z`))}: ${d.sales} sale${d.sales === 1 ? "" : "s"}`;
  const summary = `Sales per day over the last ${days.length} days: ${total.toLocaleString("en-US")} in all.`;
  return (
    <figure className="mt-4" data-testid="sales-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-16 w-full text-primary"
        preserveAspectRatio="none"
        role="img"
        aria-label={summary}
      >
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="stroke-border" strokeWidth="1" />
        {days.map((d, i) => {
          const h = d.sales === 0 ? 0 : Math.max(2, (d.sales / most) * (HEIGHT - 4));
          return (
            <rect
              key={d.day}
              x={i * step + step * 0.15}
              y={HEIGHT - h}
              width={step * 0.7}
              height={h}
              className="fill-current"
              rx="1"
            >
              <title>{dayText(d)}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex justify-between text-xs text-muted-foreground">
        <span>{formatDay(new Date(`${days[0]!.day}T00:00:00Z`))}</span>
        <span>Daily sales</span>
        <span>{formatDay(new Date(`${days.at(-1)!.day}T00:00:00Z`))}</span>
      </figcaption>
      <p className="sr-only">
        {summary} {busy.length ? busy.map(dayText).join("; ") : "No day had a sale."}
      </p>
    </figure>
  );
}
