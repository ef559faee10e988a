// Whether a listing matches a search's words: the SQL conditions over the search text and the name (a trigram
// index serves them), and the same test in JavaScript for the planner's sample (plan.ts), so both agree.
import { sql, type SQL } from "drizzle-orm";
import type { SearchTerms } from "./terms";

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
function textMatches(
  column: SQL,
  terms: SearchTerms,
  form: "index" | "scan",
  recheckOnly: readonly string[] = [],
): SQL {
  return sql.join(
    terms.words.map((w) => {
      if (isShort(w))
        return form === "index" && !recheckOnly.includes(w) ? sql`${column} ~ ${wordStart(w)}` : startsAWord(column, w);
      // `|| ''` hides the column from the index.
      return sql`${recheckOnly.includes(w) ? sql`(${column} || '')` : column} like ${`%${like(w)}%`}`;
    }),
    sql` and `,
  );
}

/** Under three characters (code points): no trigram of its own. */
export function isShort(word: string): boolean {
  return [...word].length < 3;
}

// What may come before a word's start. As a regular expression the trigram index reads it as a word boundary
// (only characters that are not letters or digits: pg_trgm then extracts the padded trigrams "  s", " sc").
// A word holds letters, digits and '_' only (terms.ts), none of them special in a regex or,
// once '_' is escaped, in LIKE.
const WORD_SEPARATORS = [" ", "\n", "\t", "-", "/", "(", "'", '"', ".", ",", ":", ";", "&", "+"];
const WORD_START = `(^|[${WORD_SEPARATORS.filter((c) => c !== "-").join("")}-])`;

function wordStart(w: string): string {
  return WORD_START + w;
}

/** The word starts the text or follows a separator: the regular expression's test in string functions. */
export function startsAWord(column: SQL, w: string): SQL {
  const starts = [
    sql`${column} like ${`${like(w)}%`}`,
    ...WORD_SEPARATORS.map((c) => sql`${column} like ${`%${c}${like(w)}%`}`),
  ];
  return sql`(strpos(${column}, ${w}) > 0 and (${sql.join(starts, sql` or `)}))`;
}

/** Search text (lower-cased name, description, categories) matches every word; trigram index listings_search_trgm_idx. */
export function matchesSearchText(
  terms: SearchTerms,
  form: "index" | "scan" = "index",
  recheckOnly: readonly string[] = [],
): SQL {
  return textMatches(sql.raw("search_text"), terms, form, recheckOnly);
}

/** The lower-cased name matches every word; partial trigram index listings_name_trgm_idx. */
export function matchesName(terms: SearchTerms, form: "index" | "scan" = "index"): SQL {
  return textMatches(sql.raw("lower(name)"), terms, form);
}

/**
 * A test of whether a lower-cased text holds the word as the "scan" form of textMatches finds it: anywhere when it has three
 * characters or more, else only where it starts a word (the text's start, or after a separator).
 */
export function wordFinder(word: string): (text: string) => boolean {
  if (!isShort(word)) return (text) => text.includes(word);
  const afterSeparator = WORD_SEPARATORS.map((c) => c + word);
  return (text) => text.startsWith(word) || afterSeparator.some((s) => text.includes(s));
}

/** Words hold letters, digits and '_' only; '_' is LIKE's one-character wildcard, so it is escaped. */
export function like(text: string): string {
  return text.replace(/_/g, "\\_");
}
