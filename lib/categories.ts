/** Splits the spec's comma-separated categories string into trimmed, de-duplicated names. */
export function splitCategories(value: string | string[]): string[] {
  const parts = Array.isArray(value) ? value : value.split(",");
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of parts) {
    const name = raw.trim().replace(/\s+/g, " ");
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push(name);
  }
  return out;
}

export function joinCategories(categories: string[]): string {
  return categories.join(", ");
}
