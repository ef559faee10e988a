// The token of an emailed link as its page receives it: one string, or "" when it is missing or was given twice
// (?token=a&token=b), which the page then answers as an invalid link rather than guessing which one was meant.
export type LinkTokenParams = Promise<{ token?: string | string[] }>;

export async function linkToken(searchParams: LinkTokenParams): Promise<string> {
  const { token } = await searchParams;
  return typeof token === "string" ? token : "";
}
