import localFont from "next/font/local";

// The geist package's own settings (geist/font/sans, geist/font/mono), except that the mono face is not
// preloaded: only code and URLs use it, and preloading its 70 kB on every page delays the first paint on
// slow links. It still loads, with a metric-matched fallback until then, wherever code is shown.
export const GeistSans = localFont({
  src: "../node_modules/geist/dist/fonts/geist-sans/Geist-Variable.woff2",
  variable: "--font-geist-sans",
  weight: "100 900",
});

export const GeistMono = localFont({
  src: "../node_modules/geist/dist/fonts/geist-mono/GeistMono-Variable.woff2",
  variable: "--font-geist-mono",
  preload: false,
  adjustFontFallback: false,
  fallback: ["ui-monospace", "SFMono-Regular", "Roboto Mono", "Menlo", "Monaco", "Liberation Mono", "DejaVu Sans Mono", "Courier New", "monospace"],
  weight: "100 900",
});
