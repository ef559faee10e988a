// Text search over the approved catalogue, ranked by relevance. Every query here is bounded: candidates come
// from trigram indexes with a LIMIT per branch, counts stop at SEARCH_WINDOW, and scoring runs on at most
// 2 × SEARCH_WINDOW rows whatever the catalogue's size. How the matches are read is chosen per search from a
// fixed-size probe of the catalogue (planSearch), not left to the planner's guess about how the words combine.
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { listings, searchWords } from "../schema";
import { recentUsageScore } from "./sales";
import { rowsOf } from "../rows";
import type { Db } from "../types";

/** A search text as the ranking reads it (search-terms.ts makes it from what a person typed). */
export type SearchTerms = {
  /** Every word, stop-words included, joined by single spaces: compared with the listing's normalised name. */
  phrase: string;
  /** The words that must match, joined by single spaces (the phrase without its stop-words). */
  core: string;
  /** The words that must each match (stop-words dropped unless nothing else is left). */
  words: string[];
};

/** Most matches a text search ranks, pages through and counts; past it the total reads "1,000+". */
export const SEARCH_WINDOW = 1000;

/**
 * Candidates the name and text branches each take to rank the first RANK_WINDOW places. Past the exact-name and
 * prefix branches, which rows of thousands that merely contain a common word get ranked is arbitrary anyway, so
 * ranking 2 × 200 instead of 2 × 1,000 of them loses nothing a person sees and costs a fifth (the first pages
 * are nearly every search). Places past RANK_WINDOW rank the full window without the rows already placed.
 */
export const RANK_WINDOW = 200;

// Field weights. An exact name beats any sum of word scores (8 words × 68 < 1000).
const W = {
  exactName: 1000,
  namePrefix: 200,
  phraseInName: 100,
  phraseInDescription: 50,
  nameWord: 40,
  nameWordPrefix: 30,
  nameSubstring: 20,
  categoryWord: 20,
  categorySubstring: 12,
  description: 8,
};

// Real usage is one signal among relevance: at most a description match's worth, so it orders equally relevant
// matches and never lifts a weaker match over a name match. Usage is what the chain shows over 30 days (the site's
// own test-purchase wallet never counts): distinct paying wallets weigh most, paid calls add a little, and calls
// count only up to CALLS_PER_PAYER per wallet, so one wallet buying a thousand times ranks like one buying ten.
// 2·ln(1 + payers) + ½·ln(1 + calls): one buyer once ≈ 1.7, ten buyers ≈ 6, twenty buyers reach the cap.
const usageBoost = sql`least(${W.description}, ${recentUsageScore(sql`f.id`)})`;

/**
 * Every word found in the searched text. A word of three characters or more is found anywhere in it (a trigram
 * index serves LIKE); a shorter one has no trigram of its own, so it must start a word (the text's start or after
 * a space, line break or common punctuation): "fast weather sc" finds "scraper", "ai" finds "AI-Powered" but not
 * "email", and the index serves it by the word-start trigrams ("  s", " sc") instead of re-reading every row
 * the other words match.
 * `form`: "index" where a trigram index leads (a regular expression it can read), "scan" where rows are read
 * anyway (the same test as plain string functions: a regular expression costs ~10 µs a row, these ~1 µs).
 * `recheckOnly`: words checked only on the rows the others found (see SearchPlan).
 */
function textMatches(column: SQL, terms: SearchTerms, form: "index" | "scan", recheckOnly: readonly string[] = []): SQL {
  return sql.join(
    terms.words.map((w) => {
      if (isShort(w)) return form === "index" && !recheckOnly.includes(w) ? sql`${column} ~ ${wordStart(w)}` : startsAWord(column, w);
      // `|| ''` hides the column from the index.
      return sql`${recheckOnly.includes(w) ? sql`(${column} || '')` : column} like ${`%${like(w)}%`}`;
    }),
    sql` and `,
  );
}

/** Under three characters (code points): no trigram of its own. */
function isShort(word: string): boolean {
  return [...word].length < 3;
}

// What may come before a word's start. As a regular expression the trigram index reads it as a word boundary
// (only characters that are not letters or digits: pg_trgm then extracts the padded trigrams "  s", " sc").
// A word holds letters, digits and '_' only (db/queries/search-terms.ts), none of them special in a regex or,
// once '_' is escaped, in LIKE.
const WORD_SEPARATORS = [" ", "\n", "\t", "-", "/", "(", "'", '"', ".", ",", ":", ";", "&", "+"];
const WORD_START = `(^|[${WORD_SEPARATORS.filter((c) => c !== "-").join("")}-])`;

function wordStart(w: string): string {
  return WORD_START + w;
}

/** The word starts the text or follows a separator: the regular expression's test in string functions. */
function startsAWord(column: SQL, w: string): SQL {
  const starts = [sql`${column} like ${`${like(w)}%`}`, ...WORD_SEPARATORS.map((c) => sql`${column} like ${`%${c}${like(w)}%`}`)];
  return sql`(strpos(${column}, ${w}) > 0 and (${sql.join(starts, sql` or `)}))`;
}

/** Search text (lower-cased name, description, categories) matches every word; trigram index listings_search_trgm_idx. */
export function matchesSearchText(terms: SearchTerms, form: "index" | "scan" = "index", recheckOnly: readonly string[] = []): SQL {
  return textMatches(sql.raw("search_text"), terms, form, recheckOnly);
}

/** The lower-cased name matches every word; partial trigram index listings_name_trgm_idx. */
export function matchesName(terms: SearchTerms, form: "index" | "scan" = "index"): SQL {
  return textMatches(sql.raw("lower(name)"), terms, form);
}

/**
 * The terms with each word that occurs nowhere replaced by the closest word of the catalogue's vocabulary
 * (search_words, trigram similarity ≥ MIN_SIMILARITY): "scrapper" → "scraper". Null when nothing changes.
 * Work depends on the vocabulary, not on the number of listings.
 */
export async function correctedTerms(db: Db, terms: SearchTerms): Promise<SearchTerms | null> {
  const lookups = terms.words.map(
    (w, i) => sql`select ${i}::int as i, (select word from ${searchWords} where word % ${w} and similarity(word, ${w}) >= ${MIN_SIMILARITY}
                  order by similarity(word, ${w}) desc, word limit 1) as fix`,
  );
  const rows = rowsOf<{ i: number; fix: string | null }>(await db.execute(sql.join(lookups, sql` union all `)));
  const words = terms.words.map((w, i) => rows.find((r) => Number(r.i) === i)?.fix ?? w);
  if (words.every((w, i) => w === terms.words[i])) return null;
  const unique = [...new Set(words)];
  return { phrase: unique.join(" "), core: unique.join(" "), words: unique };
}

const MIN_SIMILARITY = 0.45;

/**
 * One word's score: the best of its matches in the name, plus those in categories and description. Name and
 * categories are normalised (`n`, `c` below) so ' word ' is a whole word; the description (`d`) is lower-cased only.
 * Plain LIKE only: per-row trigram similarity over descriptions costs ~0.1 ms a row, too much for the window.
 * A short word scores where it starts a word, as it matches (textMatches).
 */
function wordScore(w: string): SQL {
  const whole = `% ${like(w)} %`;
  const prefix = `% ${like(w)}%`;
  const inside = isShort(w) ? prefix : `%${like(w)}%`;
  const inDescription = isShort(w) ? startsAWord(sql`f.d`, w) : sql`f.d like ${inside}`;
  return sql`(
    case when f.n like ${whole} then ${W.nameWord} when f.n like ${prefix} then ${W.nameWordPrefix}
         when f.n like ${inside} then ${W.nameSubstring} else 0 end
    + case when f.c like ${whole} then ${W.categoryWord} when f.c like ${inside} then ${W.categorySubstring} else 0 end
    + case when ${inDescription} then ${W.description} else 0 end)`;
}

/** Words hold letters, digits and '_' only; '_' is LIKE's one-character wildcard, so it is escaped. */
function like(text: string): string {
  return text.replace(/_/g, "\\_");
}

// The phrase is tried as typed and without its stop-words ("find me a weather server" → "weather").
function score(terms: SearchTerms): SQL {
  const phrase = like(terms.phrase);
  const core = like(terms.core);
  const multiWord = terms.words.length > 1;
  return sql`(
    case when f.n = ${` ${terms.phrase} `} or f.n = ${` ${terms.core} `} then ${W.exactName}
         when f.n like ${` ${phrase} %`} or f.n like ${` ${core} %`} then ${W.namePrefix}
         when f.n like ${`% ${core} %`} then ${W.phraseInName} else 0 end
    + ${multiWord ? sql`case when f.d like ${`%${core}%`} then ${W.phraseInDescription} else 0 end` : sql`0`}
    + ${sql.join(terms.words.map(wordScore), sql` + `)})`;
}

// Names and categories are short: common punctuation becomes spaces (nested replace() is far cheaper per row
// than regexp_replace or translate), runs of spaces collapse, and the field is padded so ' word ' is a whole word.
const normalised = (column: SQL) => {
  let out = sql`lower(${column})`;
  for (const ch of ["-", ".", ",", ":", ";", "/", "&", "(", ")", "'", "!", "?", "+"]) out = sql`replace(${out}, ${ch}, ' ')`;
  return sql`' ' || btrim(replace(replace(${out}, '   ', ' '), '  ', ' ')) || ' '`;
};
const COLUMNS = sql.raw("id, slug, name, description, categories, price, verified, server_url, website_url, created_at, updated_at, source, upstream_name, upstream_url, upstream_status, registry_name");

export type RankedRow = {
  id: string;
  slug: string;
  name: string;
  description: string;
  categories: string[];
  price: string | number | null;
  verified: boolean;
  server_url: string;
  website_url: string | null;
  created_at: string | Date;
  updated_at: string | Date;
  source: string;
  upstream_name: string | null;
  upstream_url: string | null;
  upstream_status: string | null;
  registry_name: string | null;
  total: number | string;
};

/**
 * How a search reads its matches, judged from the first PROBE_ROWS approved listings of the filter (a fixed-size
 * read; physical order, as the matches are read). Where every word's trigrams are common but rarely together
 * ("audio retail": each in 8 % of a million listings, together in none) the planner multiplies the words' odds,
 * expects thousands of matches, and reads the whole table until a LIMIT that never comes; where they are common
 * together ("tiny token": 80,000), a trigram index builds a bitmap of every match before the LIMIT can stop it.
 * - `textDense`: the words match at least DENSE_SHARE of the probe: read the table in order and stop at the
 *   window (a few thousand rows), never the index;
 * - otherwise the index, with the planner costing every match (no LIMIT in sight), so a misjudged LIMIT cannot
 *   turn it into a scan of the table.
 * `nameDense` is the same for the names (read only when the text matches outnumber the window). Tables smaller
 * than the probe take the index path: all of it is cheap.
 * `recheckOnly`: on the index path, when one word is rare (not in the probe at all: "42173") the dense words
 * ("fast", "recipe": 8 % each) are left out of the index condition and checked on the few rows the rare ones
 * found. Their posting lists, a hundred thousand entries each, are most of a trigram index's work.
 */
export type SearchPlan = { textDense: boolean; nameDense: boolean; recheckOnly: string[] };

/** The probe's size and what counts as dense (exported for tests that make a small catalogue look large). */
export const searchPlanning = { probeRows: 1000, denseShare: 0.05, scanRows: 50_000 };

/**
 * The plan from the probe: the first `probeRows` approved listings of the filter, read once and kept in memory for
 * SAMPLE_TTL_MS (per database and filter), and every search's words counted in them here instead of in a statement
 * of their own (it was ~4 ms of the database's time a search, and a round trip). The probe is a sample, and a
 * minute-old sample is as good a sample: a plan only chooses how the matches are read, never which rows match
 * (the tests run every way and compare the answers).
 */
export async function planSearch(db: Db, terms: SearchTerms, filter: SQL): Promise<SearchPlan> {
  return planFrom(terms.words, await probeCounts(db, terms, filter));
}

/** The probe's counts: rows sampled, rows whose search text (`text`) and name (`name`) hold every word, and each word's. */
type ProbeCounts = { seen: number; text: number; name: number; words: number[] };

export async function probeCounts(db: Db, terms: SearchTerms, filter: SQL): Promise<ProbeCounts> {
  const rows = await probeSample(db, filter);
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

/**
 * A test of whether a lower-cased text holds the word as the "scan" form of textMatches finds it: anywhere when it has three
 * characters or more, else only where it starts a word (the text's start, or after a separator).
 */
function wordFinder(word: string): (text: string) => boolean {
  if (!isShort(word)) return (text) => text.includes(word);
  const afterSeparator = WORD_SEPARATORS.map((c) => c + word);
  return (text) => text.startsWith(word) || afterSeparator.some((s) => text.includes(s));
}

/** The plan from the probe's counts (`counts.words` in the order of `words`). */
function planFrom(words: string[], counts: ProbeCounts): SearchPlan {
  const { probeRows, denseShare } = searchPlanning;
  const sized = counts.seen >= probeRows;
  const dense = (n: number) => sized && n >= denseShare * probeRows;
  const textDense = dense(counts.text);
  const nameDense = dense(counts.name);
  const rare = sized && !textDense && counts.words.some((n) => n === 0);
  return { textDense, nameDense, recheckOnly: rare ? words.filter((_, i) => dense(counts.words[i]!)) : [] };
}

/** Since start: probe samples read from the database, and plans made from one already in memory. */
export function probeStats(): { reads: number; reused: number } {
  const holder = globalThis as { __searchProbeStats?: { reads: number; reused: number } };
  return (holder.__searchProbeStats ??= { reads: 0, reused: 0 });
}

// The samples, per database and filter: at most MAX_SAMPLES (oldest out first), each probeRows rows of a name
// (≤ 100 characters) and a search text (≤ ~1,300: name, description ≤ 1,000, categories), so a few MB at most.
// Kept as rows once read, never as the read's promise: a promise made during a request holds that request's
// async context, and with it the whole request (issue 42). A read in progress is shared, then forgotten.
const SAMPLE_TTL_MS = 60_000;
const MAX_SAMPLES = 16;
type SampleRow = { name: string; text: string };
type Sample = { rows: SampleRow[]; at: number };
const samples = new WeakMap<Db, { kept: Map<string, Sample>; reading: Map<string, Promise<SampleRow[]>> }>();
const dialect = new PgDialect();

async function probeSample(db: Db, filter: SQL): Promise<SampleRow[]> {
  let cache = samples.get(db);
  if (!cache) samples.set(db, (cache = { kept: new Map(), reading: new Map() }));
  const { kept, reading } = cache;
  const { probeRows } = searchPlanning;
  const { sql: text, params } = dialect.sqlToQuery(filter);
  // The probe's size is part of the key: a sample of another size is not comparable.
  const key = JSON.stringify([probeRows, text, params]);
  const now = Date.now();
  const hit = kept.get(key);
  if (hit && now - hit.at <= SAMPLE_TTL_MS) {
    probeStats().reused++;
    return hit.rows;
  }
  const running = reading.get(key);
  if (running) {
    probeStats().reused++;
    return running;
  }
  probeStats().reads++;
  // Concurrent searches share one read; a failed read is not kept.
  const read = db
    .execute(sql`select lower(name) as name, search_text as text from ${listings} where ${listings.status} = 'approved' and ${filter} limit ${probeRows}`)
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

/**
 * The best matches in relevance order (score, then verified, then name), with the number of matches in `total`:
 * exact when the branches held them all, else counted up to SEARCH_WINDOW + 1 (only then, and only once).
 * `filter` holds the category and price conditions.
 */
export async function rankedSearch(db: Db, terms: SearchTerms, filter: SQL, page: { limit: number; offset: number }, plan: SearchPlan): Promise<RankedRow[]> {
  const rows = await rankedPage(db, terms, filter, page, plan);
  // A dense read stops after scanRows rows: fewer matches than the window there means the probe's rows were not
  // like the rest of the table, so the count would be short. The index path counts them instead (rare).
  if (plan.textDense && (rows.length === 0 || Number(rows[0]!.total) <= SEARCH_WINDOW)) return rankedPage(db, terms, filter, page, { ...plan, textDense: false });
  return rows;
}

async function rankedPage(db: Db, terms: SearchTerms, filter: SQL, page: { limit: number; offset: number }, plan: SearchPlan): Promise<RankedRow[]> {
  const run = async (p: typeof page, options?: Partial<RankOptions>) => rowsOf<RankedRow>(await db.execute(rankedSearchSql(terms, filter, p, { plan, ...options })));
  const end = page.offset + page.limit;
  if (end <= RANK_WINDOW) return run(page);
  // A deeper page: the first RANK_WINDOW places are exactly the first pages' ranking, so no row shows twice
  // or never while a person pages on; the places after them rank the full window without those rows.
  const top = await run({ limit: RANK_WINDOW, offset: 0 });
  const placed = top.slice(page.offset, end);
  const more = page.limit - placed.length;
  if (top.length < RANK_WINDOW || more === 0) return placed;
  const rest = await run({ limit: more, offset: Math.max(0, page.offset - RANK_WINDOW) }, { window: SEARCH_WINDOW, exclude: top.map((r) => r.id) });
  // Both statements count the same matches; the total is the first one's.
  return [...placed, ...rest.map((r) => ({ ...r, total: top[0]!.total }))];
}

type RankOptions = { window: number; exclude: string[]; plan: SearchPlan };

/**
 * The listings that match, as a subquery `m` of COLUMNS: read in table order and stopped at scanRows when dense,
 * else from the trigram index. Used inside a MATERIALIZED CTE and read with a LIMIT outside it: the CTE runs only
 * as far as it is read, while the planner, seeing no LIMIT, plans for every match (index, not a hopeful scan).
 */
function matching(condition: (form: "index" | "scan") => SQL, base: SQL, dense: boolean): SQL {
  return dense
    ? sql`select ${COLUMNS} from (select ${COLUMNS}, search_text from ${listings} where ${base} limit ${searchPlanning.scanRows}) m where ${condition("scan")}`
    : sql`select ${COLUMNS} from ${listings} where ${base} and ${condition("index")}`;
}

/** The ranked search's statement (the bench prints its EXPLAIN ANALYZE). */
export function rankedSearchSql(terms: SearchTerms, filter: SQL, page: { limit: number; offset: number }, options: Partial<RankOptions> = {}): SQL {
  const base = sql`${listings.status} = 'approved' and ${filter}`;
  const { window = RANK_WINDOW, exclude = [], plan = { textDense: false, nameDense: false, recheckOnly: [] } } = options;
  // Four branches, each served by its own index and bounded: the exact name and names that start with the words
  // (a range on the btree over lower(name); the LIKE re-checks it whatever the collation), names that hold every
  // word (a common description word cannot crowd them out), and then anything that matches. The text matches
  // are read once for the branch and the count.
  // Read in table order, the text matches the count reads anyway hold the first name matches in the same order
  // (names are a part of the search text): when they hold enough, the names need no read of their own.
  const namesInCount = sql`select * from (select * from text_matches limit ${SEARCH_WINDOW + 1}) t where ${matchesName(terms, "scan")}`;
  return sql`
    with text_matches as materialized (${matching((form) => matchesSearchText(terms, form, plan.recheckOnly), base, plan.textDense)}),
    name_matches as materialized (${matching((form) => matchesName(terms, form), base, plan.nameDense)}),
    candidates as materialized (
      (select ${COLUMNS} from ${listings} where ${base} and lower(${listings.name}) in (${terms.phrase}, ${terms.core}) limit 10)
      union
      (select ${COLUMNS} from ${listings} where ${base} and lower(${listings.name}) >= ${terms.core}
         and lower(${listings.name}) < ${successor(terms.core)} and lower(${listings.name}) like ${`${like(terms.core)}%`} limit ${PREFIX_LIMIT})
      union
      -- Every name match is a text match (the search text starts with the name): only when the text branch
      -- cannot hold every match do the names need a branch of their own (a one-time filter: else never read).
      ${plan.textDense ? sql`(select * from (${namesInCount}) n limit ${window + 1}) union` : sql``}
      (select * from name_matches where (select count(*) from (select 1 from text_matches limit ${window + 1}) w) > ${window}
         ${plan.textDense ? sql`and (select count(*) from (${namesInCount}) n) <= ${window}` : sql``} limit ${window + 1})
      union
      (select * from text_matches limit ${window + 1})
    ),
    -- Each field normalised once per row (materialized: the planner would otherwise repeat it in every term).
    f as materialized (
      select candidates.*, ${normalised(sql`name`)} as n, ${normalised(sql`array_to_string(categories, ' ')`)} as c,
             lower(description) as d
      from candidates
    )
    -- Every candidate matches the text branch's condition, so when they number no more than the window that
    -- branch held every match and this is the count; otherwise the matches are counted, up to the cap.
    -- (An uncorrelated subquery is run only when the CASE reaches it.)
    select id, slug, name, description, categories, price, verified, server_url, website_url, created_at, updated_at,
           source, upstream_name, upstream_url, upstream_status, registry_name,
           case when (select count(*) from candidates) <= ${window} then (select count(*) from candidates)
                else (select count(*) from (select 1 from text_matches limit ${SEARCH_WINDOW + 1}) m)
           end as total
    from f
    ${exclude.length ? sql`where id not in (${sql.join(exclude.map((id) => sql`${id}::uuid`), sql`, `)})` : sql``}
    order by ${score(terms)} + ${usageBoost} desc, verified desc, lower(name), id
    limit ${page.limit} offset ${page.offset}`;
}

const PREFIX_LIMIT = 50;

/** The smallest string above every string that starts with `text` (its last character moved up by one). */
function successor(text: string): string {
  const chars = [...text];
  const last = chars.pop()!;
  return chars.join("") + String.fromCodePoint(last.codePointAt(0)! + 1);
}

/** Matches of a text search in another order (newest, name, popular): a bounded count, then the page. */
export async function countUpTo(db: Db, condition: SQL, cap: number): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from (select 1 from ${listings} where ${condition} limit ${cap}) t`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** The matches of a text search counted up to `cap`, read as the plan says (see `matching`). */
export async function countMatches(db: Db, terms: SearchTerms, filter: SQL, plan: SearchPlan, cap: number): Promise<number> {
  const base = sql`${listings.status} = 'approved' and ${filter}`;
  const counted = async (dense: boolean) => {
    const result = await db.execute(sql`with t as materialized (${matching((form) => matchesSearchText(terms, form, dense ? [] : plan.recheckOnly), base, dense)}) select count(*)::int as n from (select 1 from t limit ${cap}) c`);
    return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
  };
  const n = await counted(plan.textDense);
  return plan.textDense && n < cap ? counted(false) : n;
}
