// A search text as the ranking reads it: lower-case words (letters, digits, '_' as in tool names), punctuation
// and stop-words gone (at most MAX_WORDS words), and the catalogue query that carries them to the database. Built
// here, beside the SQL that matches and ranks them (match.ts, rank.ts), so the words and their SQL stay one pair.
import type { CatalogueFilters, CataloguePrice, CatalogueSort, CatalogueSource } from "@agora-mcp/protocol";
import { sql, type SQL } from "drizzle-orm";
import { searchWords } from "../../schema";
import { rowsOf } from "../../rows";
import type { Db } from "../../types";

/** A search text as the ranking reads it (searchTerms below makes it from what a person typed). */
export type SearchTerms = {
  /** Every word, stop-words included, joined by single spaces: compared with the listing's normalised name. */
  phrase: string;
  /** The words that must match, joined by single spaces (the phrase without its stop-words). */
  core: string;
  /** The words that must each match (stop-words dropped unless nothing else is left). */
  words: string[];
};

/** The catalogue's filters and sorts (@agora-mcp/protocol's catalogue.ts names the values once). */
export type CatalogueQuery = {
  /** The search text's words; null: no text (browse). */
  terms: SearchTerms | null;
  category: string;
  price: CataloguePrice;
  /** Where listings came from: every source, or one. */
  source?: CatalogueSource;
  sort: CatalogueSort;
  /** A further condition on listings (x402 discovery's search: listings that may sell through x402). */
  only?: SQL;
};

/** Words that carry no meaning in a search of this catalogue (English function words, and "mcp"/"server"). */
const STOP_WORDS = new Set(
  (
    "a about all also an and any are as at be best by can do for from get give good has have how i in into is it its just " +
    "me my need of on or our " +
    "please some that the this to use want what which with you your find show mcp server servers tool tools"
  ).split(" "),
);

const MAX_WORDS = 8;
const MAX_WORD_LENGTH = 40;

/** Null when the text holds no letter or digit (no search at all). */
export function searchTerms(text: string): SearchTerms | null {
  const all = text
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .map((w) => w.slice(0, MAX_WORD_LENGTH));
  if (all.length === 0) return null;
  const unique = [...new Set(all)];
  const meaningful = unique.filter((w) => !STOP_WORDS.has(w));
  const words = (meaningful.length > 0 ? meaningful : unique).slice(0, MAX_WORDS);
  return { phrase: all.join(" "), core: words.join(" "), words };
}

/** The database's query for a filter state, built here alone: the text becomes terms, the rest passes as it is. */
export function catalogueQuery(filters: CatalogueFilters, only?: SQL): CatalogueQuery {
  return {
    terms: searchTerms(filters.q),
    category: filters.category,
    price: filters.price,
    source: filters.source,
    sort: filters.sort,
    ...(only ? { only } : {}),
  };
}

/**
 * The terms with each word that occurs nowhere replaced by the closest word of the catalogue's vocabulary
 * (search_words, trigram similarity ≥ MIN_SIMILARITY): "scrapper" → "scraper". Null when nothing changes.
 * Work depends on the vocabulary, not on the number of listings.
 */
export async function correctedTerms(db: Db, terms: SearchTerms): Promise<SearchTerms | null> {
  const lookups = terms.words.map(
    (
      w,
      i,
    ) => sql`select ${i}::int as i, (select word from ${searchWords} where word % ${w} and similarity(word, ${w}) >= ${MIN_SIMILARITY}
                  order by similarity(word, ${w}) desc, word limit 1) as fix`,
  );
  const rows = rowsOf<{ i: number; fix: string | null }>(await db.execute(sql.join(lookups, sql` union all `)));
  const words = terms.words.map((w, i) => rows.find((r) => Number(r.i) === i)?.fix ?? w);
  if (words.every((w, i) => w === terms.words[i])) return null;
  const unique = [...new Set(words)];
  return { phrase: unique.join(" "), core: unique.join(" "), words: unique };
}

const MIN_SIMILARITY = 0.45;
