// Dates as people read them, formatted on the server in UTC so server and browser render the same text.
const day = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
const dayTime = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

export function formatDay(date: Date): string {
  return day.format(date);
}

export function formatDayTime(date: Date): string {
  return dayTime.format(date);
}
