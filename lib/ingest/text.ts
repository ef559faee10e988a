// Upstream text is somebody else's: URLs must be http(s), and markup is taken out of names and descriptions
// (every surface escapes text anyway; this keeps tags out of search, cards and agents' answers), as are the
// invisible characters that make one text look like another: bidi controls (which reorder what a reader sees)
// and zero-width characters (which make "weather" and "wea\u200bther" two names).

export function httpUrl(value: string | undefined | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}

const TAG = /<\/?[a-zA-Z!][^<>]{0,2000}>/g;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** Bidi embeddings, overrides, isolates and marks; zero-width spaces and joiners, word joiner, BOM, soft hyphen. */
const INVISIBLE = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060-\u2064\ufeff\u00ad\u180e]/g;

/** Text without control, bidi or zero-width characters (a name or a URL is compared after this). */
export function visibleText(value: string): string {
  return value.replace(CONTROL, "").replace(INVISIBLE, "");
}

/**
 * Text without HTML tags or control, bidi and zero-width characters, whitespace tidied and cut to `max` characters.
 * `stripped`: markup was taken out; `invisible`: invisible characters were.
 */
export function plainText(value: string, max: number): { text: string; stripped: boolean; invisible: boolean } {
  // Only the start of a long text is ever kept: a megabyte of description is not worked through (a tag the cut
  // leaves open is dropped).
  const head = value.length > max * 4 + 4096 ? value.slice(0, max * 4 + 4096).replace(/<[^<>]*$/, "") : value;
  const withoutTags = head.replace(TAG, " ");
  const visible = visibleText(withoutTags);
  const text = visible.replace(/[ \t]+/g, " ").trim();
  return {
    text: Array.from(text).slice(0, max).join(""),
    stripped: withoutTags !== head,
    invisible: visible !== withoutTags.replace(CONTROL, ""),
  };
}
