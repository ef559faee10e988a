// How a text search reads its matches (index or table order), chosen per search from a fixed-size sample of the
// catalogue rather than left to the planner's guess about how the words combine.
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { listings } from "../../schema";
import { rowsOf } from "../../rows";
import type { Db } from "../../types";
import { wordFinder } from "./match";
import type { SearchTerms } from "./terms";
import { processState } from "../../process-state";

/**
 * How a search reads its matches, judged from the first PROBE_ROWS approved listings of the filter (a fixed-size
 * read; physical order, as the matches are read). Where every word's trigrams are common but rarely together
 * ("audio retail": each in 8 % of a million listings, together in none) the planner multiplies the words' odds,
 * expects thousands of matches, and reads the whole table until a LIMIT that never comes; where they are common
 * together ("tiny token": 80,000), a trigram index builds a bitmap of every match before the LIMIT can stop it.
 * - `textDense`: the words match at least DENSE_SHARE of the sample: read the table in order and stop at the
 *   window (a few thousand rows), never the index;
 * - otherwise the index, with the planner costing every match (no LIMIT in sight), so a misjudged LIMIT cannot
 *   turn it into a scan of the table.
 * `nameDense` is the same for the names (read only when the text matches outnumber the window). Tables smaller
 * than the sample take the index path: all of it is cheap.
 * `recheckOnly`: on the index path, when one word is rare (not in the sample at all: "42173") the dense words
 * ("fast", "recipe": 8 % each) are left out of the index condition and checked on the few rows the rare ones
 * found. Their posting lists, a hundred thousand entries each, are most of a trigram index's work.
 */
export type SearchPlan = { textDense: boolean; nameDense: boolean; recheckOnly: string[] };

/** The sample's size and what counts as dense (exported for tests that make a small catalogue look large). */
export const searchPlanning = { sampleRows: 1000, denseShare: 0.05, scanRows: 50_000 };

/**
 * The plan from the sample: the first `sampleRows` approved listings of the filter, read once and kept in memory for
 * SAMPLE_TTL_MS (per database and filter), and every search's words counted in them here instead of in a statement
 * of their own (it was ~4 ms of the database's time a search, and a round trip). The sample is only a sample, and a
 * minute-old sample is as good a sample: a plan only chooses how the matches are read, never which rows match
 * (the tests run every way and compare the answers).
 */
export async function planSearch(db: Db, terms: SearchTerms, filter: SQL): Promise<SearchPlan> {
  return planFrom(terms.words, await sampleCounts(db, terms, filter));
}

/** The sample's counts: rows sampled, rows whose search text (`text`) and name (`name`) hold every word, and each word's. */
type SampleCounts = { seen: number; text: number; name: number; words: number[] };

export async function sampleCounts(db: Db, terms: SearchTerms, filter: SQL): Promise<SampleCounts> {
  const rows = await readSample(db, filter);
  // Each word is looked for once per row's text; the rows holding every word are the rows where each was found.
  // One finder per word, made once: not a spread and fourteen concatenations per row and word (1,000 rows a search).
  const finders = terms.words.map(wordFinder);
  const found = finders.map((holds) => rows.map((r) => holds(r.text)));
  let text = 0;
  let name = 0;
  rows.forEach((r, i) => {
    if (!found.every((inText) => inText[i])) return;
    text++;
    // A name is a part of the search text: only a row whose text holds every word can hold them in its name.
    if (finders.every((holds) => holds(r.name))) name++;
  });
  return { seen: rows.length, text, name, words: found.map((inText) => inText.filter(Boolean).length) };
}

/** The plan from the sample's counts (`counts.words` in the order of `words`). */
function planFrom(words: string[], counts: SampleCounts): SearchPlan {
  const { sampleRows, denseShare } = searchPlanning;
  const sized = counts.seen >= sampleRows;
  const dense = (n: number) => sized && n >= denseShare * sampleRows;
  const textDense = dense(counts.text);
  const nameDense = dense(counts.name);
  const rare = sized && !textDense && counts.words.some((n) => n === 0);
  return { textDense, nameDense, recheckOnly: rare ? words.filter((_, i) => dense(counts.words[i]!)) : [] };
}

/** Since start: samples read from the database, and plans made from one already in memory. */
export function sampleStats(): { reads: number; reused: number } {
  return processState("search-sample-stats", () => ({ reads: 0, reused: 0 }));
}

// The samples, per database and filter: at most MAX_SAMPLES (oldest out first), each sampleRows rows of a name
// (≤ 100 characters) and a search text (≤ ~1,300: name, description ≤ 1,000, categories), so a few MB at most.
// Kept as rows once read, never as the read's promise: a promise made during a request holds that request's
// async context, and with it the whole request. A read in progress is shared, then forgotten.
const SAMPLE_TTL_MS = 60_000;
const MAX_SAMPLES = 16;
type SampleRow = { name: string; text: string };
type Sample = { rows: SampleRow[]; at: number };
const samples = new WeakMap<Db, { kept: Map<string, Sample>; reading: Map<string, Promise<SampleRow[]>> }>();
const dialect = new PgDialect();

async function readSample(db: Db, filter: SQL): Promise<SampleRow[]> {
  let cache = samples.get(db);
  if (!cache) samples.set(db, (cache = { kept: new Map(), reading: new Map() }));
  const { kept, reading } = cache;
  const { sampleRows } = searchPlanning;
  const { sql: text, params } = dialect.sqlToQuery(filter);
  // The sample's size is part of the key: a sample of another size is not comparable.
  const key = JSON.stringify([sampleRows, text, params]);
  const now = Date.now();
  const hit = kept.get(key);
  if (hit && now - hit.at <= SAMPLE_TTL_MS) {
    sampleStats().reused++;
    return hit.rows;
  }
  const running = reading.get(key);
  if (running) {
    sampleStats().reused++;
    return running;
  }
  sampleStats().reads++;
  // Concurrent searches share one read; a failed read is not kept.
  const read = db
    .execute(
      sql`select lower(name) as name, search_text as text from ${listings} where ${listings.status} = 'approved' and ${filter} limit ${sampleRows}`,
    )
    .then((result) => rowsOf<SampleRow>(result));
  reading.set(key, read);
  try {
    const rows = await read;
    kept.delete(key);
    kept.set(key, { rows, at: now });
    while (kept.size > MAX_SAMPLES) kept.delete(kept.keys().next().value!);
    return rows;
  } finally {
    reading.delete(key);
  }
}
