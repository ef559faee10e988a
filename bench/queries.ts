// The bench's search texts: thousands of distinct, realistic searches built from the catalogue's own vocabulary
// (what people type: whole names, name fragments, a word or two, a misspelt word, a category, a miss), so that
// a load test asks what users ask instead of five texts the search cache answers after the first time.
import { sql } from "drizzle-orm";
import { rowsOf } from "@/db/rows";
import type { Db } from "@/db/types";

export const QUERY_KINDS = ["name", "name fragment", "word", "word pair", "typo", "category word", "miss"] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];
export type BenchQuery = { kind: QueryKind; q: string };

/** A small deterministic generator (mulberry32): the same catalogue gives the same query set. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** One typing slip: a letter dropped, doubled, swapped with the next, or replaced. */
function typo(word: string, next: () => number): string {
  const i = Math.floor(next() * word.length);
  const kind = Math.floor(next() * 4);
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1);
  if (kind === 1) return word.slice(0, i) + word[i] + word.slice(i);
  if (kind === 2 && i < word.length - 1) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  const letter = LETTERS[Math.floor(next() * LETTERS.length)]!;
  return word.slice(0, i) + letter + word.slice(i + 1);
}

/**
 * `count` distinct searches (at least), each kind about an equal share, in a shuffled order. Names and words
 * come from the database being measured: listing names (a sample), the typo vocabulary (search_words) and the
 * categories in use.
 */
export async function buildQuerySet(db: Db, count = 5000, seed = 30): Promise<BenchQuery[]> {
  const next = random(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
  // A sample of names spread over the table (TABLESAMPLE reads a few pages, not the whole table).
  const names = rowsOf<{ name: string }>(
    await db.execute(sql`select name from listings tablesample system (5) where status = 'approved' limit ${count}`),
  ).map((r) => r.name);
  if (names.length < count) {
    const more = rowsOf<{ name: string }>(
      await db.execute(sql`select name from listings where status = 'approved' limit ${count}`),
    );
    names.push(...more.map((r) => r.name));
  }
  const words = rowsOf<{ word: string }>(
    await db.execute(sql`select word from search_words where word ~ '^[a-z]{3,}$' limit 20000`),
  ).map((r) => r.word);
  const categories = rowsOf<{ c: string }>(
    await db.execute(
      sql`select distinct lower(c) as c from (select unnest(categories) as c from listings limit 20000) t`,
    ),
  ).map((r) => r.c);
  if (names.length === 0 || words.length === 0)
    throw new Error("the catalogue is empty: seed it before building queries");

  const makers: Record<QueryKind, () => string> = {
    name: () => pick(names),
    // The first word or two of a name and part of the next, as typed into a search box before it is finished.
    "name fragment": () => {
      const parts = pick(names).split(/\s+/);
      const keep = Math.max(1, Math.floor(next() * Math.min(3, parts.length)));
      const tail = parts[keep] ? ` ${parts[keep]!.slice(0, 2 + Math.floor(next() * 3))}` : "";
      return parts.slice(0, keep).join(" ") + tail;
    },
    word: () => pick(words),
    "word pair": () => `${pick(words)} ${pick(words)}`,
    typo: () => `${typo(pick(words), next)}${next() < 0.5 ? ` ${pick(words)}` : ""}`,
    "category word": () => `${pick(categories)} ${pick(words)}`,
    // Words nobody listed (a miss goes through the typo correction too, then finds nothing).
    miss: () =>
      `${Array.from({ length: 5 + Math.floor(next() * 4) }, () => LETTERS[Math.floor(next() * LETTERS.length)]).join("")}`,
  };
  const seen = new Set<string>();
  const out: BenchQuery[] = [];
  const add = (kind: QueryKind, wanted: number) => {
    for (let made = 0, tries = 0; made < wanted && tries < wanted * 50; tries++) {
      const q = makers[kind]().toLowerCase();
      const key = q.trim().replace(/\s+/g, " ");
      if (!key || seen.has(key)) continue;
      seen.add(key);
      out.push({ kind, q: key });
      made++;
    }
  };
  for (const kind of QUERY_KINDS) add(kind, Math.ceil(count / QUERY_KINDS.length));
  // A small vocabulary has fewer distinct single words than a share: whole names and pairs make up the rest.
  while (out.length < count) {
    const before = out.length;
    add("word pair", count - out.length);
    add("name", count - out.length);
    if (out.length === before) break;
  }
  // Shuffle (Fisher–Yates) so consecutive requests are of different kinds, as they would be from many people.
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** How many queries of each kind, for the report. */
export function kindCounts(queries: BenchQuery[]): string {
  const counts = new Map<string, number>();
  for (const q of queries) counts.set(q.kind, (counts.get(q.kind) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ${n}`).join(", ");
}
