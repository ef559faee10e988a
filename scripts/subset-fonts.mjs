// Writes app/fonts/*.woff2: Geist and Geist Mono (the `geist` package's variable fonts) cut to the characters the site
// writes and the weights it uses. `npm run fonts` runs it; the output is committed, so a build never needs it.
//
// Why: the whole variable fonts are 69 KB and 71 KB, preloaded on every page. On a phone on slow 4G they were the
// largest thing a page fetched before its first paint after the scripts (Lighthouse counts every request that ended
// before the largest paint in it). Latin with Western European accents, typographic punctuation, arrows and the
// check marks the pages print, weights 400–700 (the classes in use: normal, medium, semibold, bold), are 23 KB and
// 24 KB. Text outside that set (a listing's name in another script) is drawn by the system font, glyph by glyph,
// as the browser does for any character a font lacks.
import fs from "node:fs";
import path from "node:path";
import subsetFont from "subset-font";

const source = "node_modules/geist/dist/fonts";
const fonts = [
  { from: `${source}/geist-sans/Geist-Variable.woff2`, to: "app/fonts/geist-sans-latin.woff2" },
  { from: `${source}/geist-mono/GeistMono-Variable.woff2`, to: "app/fonts/geist-mono-latin.woff2" },
];

// Basic Latin, Latin-1, the Latin extras of Google Fonts' "latin" subset, general punctuation (dashes, quotes, ellipsis,
// bullets, ›), the euro and trade marks, arrows, minus, ⌘, ★, ✓ and ✕, the replacement character.
const UNICODE_RANGES = [
  [0x20, 0x7e],
  [0xa0, 0xff],
  [0x131, 0x131],
  [0x152, 0x153],
  [0x2bb, 0x2bc],
  [0x2c6, 0x2c6],
  [0x2da, 0x2da],
  [0x2dc, 0x2dc],
  [0x2000, 0x206f],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
  [0x2190, 0x2193],
  [0x2212, 0x2212],
  [0x2215, 0x2215],
  [0x2318, 0x2318],
  [0x2605, 0x2605],
  [0x2713, 0x2713],
  [0x2715, 0x2715],
  [0xfffd, 0xfffd],
];
let text = "";
for (const [first, last] of UNICODE_RANGES) for (let c = first; c <= last; c++) text += String.fromCodePoint(c);

for (const { from, to } of fonts) {
  const input = fs.readFileSync(from);
  const output = await subsetFont(input, text, {
    targetFormat: "woff2",
    variationAxes: { wght: { min: 400, max: 700 } },
  });
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.writeFileSync(to, output);
  console.log(`${to}: ${output.length} bytes (from ${input.length})`);
}
fs.copyFileSync("node_modules/geist/LICENSE.txt", "app/fonts/LICENSE.txt");
