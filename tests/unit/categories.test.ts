import { describe, expect, it } from "vitest";
import { joinCategories, splitCategories } from "@/lib/categories";
import { slugify } from "@/lib/listings/slug";

describe("categories", () => {
  it("splits the comma-separated string, trimming and dropping blanks and duplicates", () => {
    expect(splitCategories(" AI, Web3 ,, ai ,Finance ")).toEqual(["AI", "Web3", "Finance"]);
    expect(joinCategories(["AI", "Web3"])).toBe("AI, Web3");
  });
});

describe("slugify", () => {
  it("makes readable URL-safe slugs", () => {
    expect(slugify("AI-Powered Web Scraper!")).toBe("ai-powered-web-scraper");
    expect(slugify("Café Übersetzer")).toBe("cafe-ubersetzer");
    expect(slugify("<script>")).toBe("script");
    expect(slugify("日本語")).toBe("server");
  });
});
