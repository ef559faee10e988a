// An upstream page's JSON, or an error saying what was wrong with it: a body past the fetch's size cap (the
// safe fetch breaks it off), or text that is not JSON. Either ends the run cleanly where it is.
import { findSafeFetchError } from "@/lib/ssrf";

export async function readJsonBody(res: Response, who: string): Promise<unknown> {
  let text: string;
  try {
    text = await res.text();
  } catch (error) {
    const refusal = findSafeFetchError(error);
    // The refusal stays the cause: a caller tells a page past the size cap from any other failure by it.
    throw new Error(refusal ? `${who}'s answer was refused: ${refusal.message}` : `${who}'s answer broke off`, {
      cause: refusal ?? error,
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${who}'s answer is not valid JSON`);
  }
}
