import { describe, expect, it } from "vitest";
import { searchTerms } from "@/db/queries/search/terms";
import { defaultSort, filtersToSearch } from "@/lib/listings/search/filters";
import { parsePageQuery, withDefaultSort } from "@/lib/validations/marketplace";

describe("searchTerms", () => {
  it("lower-cases, splits on punctuation and drops stop-words", () => {
    expect(searchTerms("Find me a WEATHER server!!")).toEqual({
      phrase: "find me a weather server",
      core: "weather",
      words: ["weather"],
    });
    expect(searchTerms("AI-Powered Web.Scraper")).toEqual({
      phrase: "ai powered web scraper",
      core: "ai powered web scraper",
      words: ["ai", "powered", "web", "scraper"],
    });
  });
  it("keeps '_' inside words (tool names) and keeps stop-words when nothing else is left", () => {
    expect(searchTerms("get_weather")?.words).toEqual(["get_weather"]);
    expect(searchTerms("the")?.words).toEqual(["the"]);
  });
  it("has no terms without a letter or digit, dedupes and caps the words", () => {
    expect(searchTerms("%_% ?!")).toBeNull();
    expect(searchTerms("?! %")).toBeNull();
    expect(searchTerms("data data DATA")?.words).toEqual(["data"]);
    expect(searchTerms("a1 b2 c3 d4 e5 f6 g7 h8 i9 j10")?.words).toHaveLength(8);
  });
});

describe("the sort a search implies", () => {
  it("is relevance with text and popular without, and only a chosen sort lands in the URL", () => {
    expect(defaultSort("weather")).toBe("relevance");
    expect(defaultSort("")).toBe("popular");
    expect(filtersToSearch({ q: "weather", sort: "relevance" })).toBe("?q=weather");
    expect(filtersToSearch({ q: "weather", sort: "popular" })).toBe("?q=weather&sort=popular");
    expect(filtersToSearch({ q: "", sort: "relevance" })).toBe("?sort=relevance");
    expect(parsePageQuery({ q: "weather" }).filters.sort).toBe("relevance");
    expect(parsePageQuery({ q: "weather", sort: "newest" }).filters.sort).toBe("newest");
    expect(parsePageQuery({ sort: "bogus" }).filters.sort).toBe("popular");
    expect(withDefaultSort({ q: "", sort: undefined }).sort).toBe("popular");
  });
});
