// How listings read to people: prices, dates, the 'New' rule.
const NEW_FOR_DAYS = 30;

/** A falsy price means free. */
export function isFree(price: number | null | undefined): boolean {
  return !price;
}

export function formatPrice(price: number | null | undefined): string {
  if (isFree(price)) return "Free";
  // Two decimals, more only when a sub-cent price needs them: $0.02, $0.005, $5.00.
  const [whole, fraction = ""] = (price as number).toFixed(6).split(".");
  return `$${whole}.${fraction.replace(/0+$/, "").padEnd(2, "0")}`;
}

export function isNew(createdAt: string | Date, now = Date.now()): boolean {
  return now - new Date(createdAt).getTime() < NEW_FOR_DAYS * 24 * 60 * 60 * 1000;
}

export function formatListedDate(createdAt: string | Date): string {
  return new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(
    new Date(createdAt),
  );
}

/** A check's time for people: "23 Nov 2026, 14:05 UTC". */
export function formatCheckedAt(at: string | Date): string {
  return (
    new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "UTC",
    }).format(new Date(at)) + " UTC"
  );
}
