// Upstream text is somebody else's: URLs must be http(s), and markup is taken out of names and descriptions
// (every surface escapes text anyway; this keeps tags out of search, cards and agents' answers).

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

/** Text without HTML tags or control characters, whitespace tidied and cut to `max` characters. */
export function plainText(value: string, max: number): { text: string; stripped: boolean } {
  const withoutTags = value.replace(TAG, " ");
  const text = withoutTags.replace(CONTROL, "").replace(/[ \t]+/g, " ").trim();
  return { text: Array.from(text).slice(0, max).join(""), stripped: withoutTags !== value };
}
