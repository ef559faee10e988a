import localFont from "next/font/local";

// Geist and Geist Mono cut to Latin and weights 400–700 by `npm run fonts` (scripts/subset-fonts.mjs says why).
// Only the text face is preloaded: every page's first paint uses it, while the monospace face is for code blocks,
// which most pages have none of above the fold; a page with code fetches it when it lays the code out.
export const sans = localFont({
  src: "./geist-sans-latin.woff2",
  variable: "--font-geist-sans",
  weight: "400 700",
});

export const mono = localFont({
  src: "./geist-mono-latin.woff2",
  variable: "--font-geist-mono",
  weight: "400 700",
  preload: false,
});
