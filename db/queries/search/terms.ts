// Built here, beside the query that reads it (listing-search.ts), so the words and the SQL that ranks them stay one pair.
// A search text as the ranking reads it: lower-case words (letters, digits, '_' as in tool names), punctuation
// and stop-words gone (at most MAX_WORDS words).
import type { CatalogueFilters } from "@agora-mcp/protocol";
import type { SQL } from "drizzle-orm";
import type { SearchTerms } from "./listing-search";
import type { CatalogueQuery } from "./listings";


/** Words that carry no meaning in a search of this catalogue (English function words, and "mcp"/"server"). */
const STOP_WORDS = new Set(
  (
    "a about all also an and any are as at be best by can do for from get give good has have how i in into is it its just " +
    "me my need of on or our " +
    "please some that the this to use want what which with you your find show mcp server servers tool tools"
  ).split(" "),
);

export const MAX_WORDS = 8;
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
  return { terms: searchTerms(filters.q), category: filters.category, price: filters.price, source: filters.source, sort: filters.sort, ...(only ? { only } : {}) };
}
