// Screens a request that Next would run as a server action before Next decodes it. Next answers a body it
// cannot decode (invalid JSON, an empty body, 50,000 nested arrays, a 2 MB body, a broken multipart form)
// with a 500 and a logged stack; these answer a 4xx with a plain message instead, and the action never runs.
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Next's own limit for server action bodies (`serverActions.bodySizeLimit`, 1 MB by default). */
const MAX_ACTION_BODY_BYTES = 1024 * 1024;
/** Far deeper than any form's values (an object of arrays is 3); React's decoder recurses per level. */
const MAX_ACTION_NESTING = 64;

/** A refusal: its code (which gives the status, server/plain-answer.mjs) and message. */
type ActionRefusal = {
  code: "invalid_form" | "unknown_action" | "stale_action" | "body_too_large" | "unsupported_media_type";
  message: string;
};

const MALFORMED: ActionRefusal = { code: "invalid_form", message: "The request body is not a valid form submission." };
const TOO_LARGE: ActionRefusal = { code: "body_too_large", message: "The request body is larger than 1 MB." };
const NO_ACTION: ActionRefusal = {
  code: "unknown_action",
  message: "The form submission names no action of this site.",
};
const OUT_OF_DATE: ActionRefusal = {
  code: "stale_action",
  message: "This page is out of date. Reload it and try again.",
};
const WRONG_TYPE: ActionRefusal = {
  code: "unsupported_media_type",
  message: "A form submission must be sent as text/plain or multipart/form-data.",
};

/** The same test Next uses to route a POST to a page as a server action. */
export function isActionRequest(method: string, headers: Headers): boolean {
  if (method !== "POST") return false;
  if (headers.has("next-action")) return true;
  const type = headers.get("content-type") ?? "";
  return type.startsWith("multipart/form-data") || type.startsWith("application/x-www-form-urlencoded");
}

/** Null when Next may decode the request; otherwise the refusal to send. Reads a clone: the body stays. */
export async function screenActionRequest(request: Request): Promise<ActionRefusal | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_ACTION_BODY_BYTES) return TOO_LARGE;
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const kind = type.startsWith("multipart/form-data") ? "multipart" : type.startsWith("text/plain") ? "text" : null;
  // Next itself declines url-encoded posts to a page (404); everything else it would try to decode.
  if (type.startsWith("application/x-www-form-urlencoded")) return null;
  if (!kind) return WRONG_TYPE;
  const actionId = request.headers.get("next-action");
  if (actionId !== null) {
    const known = knownAction(actionId);
    if (known !== true) return known === false ? OUT_OF_DATE : NO_ACTION;
  }

  let body: ArrayBuffer;
  try {
    body = await request.clone().arrayBuffer();
  } catch {
    return MALFORMED;
  }
  // The proxy buffers at most its own limit (10 MB) of a body sent without a length; anything at 1 MB is over.
  if (body.byteLength > MAX_ACTION_BODY_BYTES) return TOO_LARGE;
  if (body.byteLength === 0) return MALFORMED;
  if (kind === "text") return actionId === null ? NO_ACTION : screenReplyText(new TextDecoder().decode(body));
  return screenMultipart(body, type, actionId !== null);
}

// A call with plain arguments is React's reply encoding: one JSON array, with no other parts to refer to.
function screenReplyText(text: string): ActionRefusal | null {
  const value = parseJson(text);
  if (value === undefined || !Array.isArray(value)) return MALFORMED;
  return acceptableReply(value, new Set()) ? null : MALFORMED;
}

// A call with form data: fields named by a number are JSON parts of the reply; the rest are a person's input
// (any text at all, "1e999" or "[[[" included), which Next hands over as strings.
async function screenMultipart(body: ArrayBuffer, type: string, fetched: boolean): Promise<ActionRefusal | null> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    return MALFORMED;
  }
  if (!fetched) return screenPlainForm(form);
  const parts = new Set([...form.keys()].filter((name) => /^\d+$/.test(name)));
  if (!parts.has("0")) return MALFORMED; // React waits for the root part until the connection closes
  for (const name of parts) {
    const entry = form.get(name);
    const value = typeof entry === "string" ? parseJson(entry) : undefined;
    if (value === undefined || !acceptableReply(value, parts)) return MALFORMED;
  }
  return null;
}

// A form posted without JavaScript names its action in a field; bound arguments ($ACTION_REF_) are never
// rendered by this site, and React's decoder throws on a forged one.
function screenPlainForm(form: FormData): ActionRefusal | null {
  const markers = [...form.keys()].filter((name) => name.startsWith("$ACTION_"));
  const ids = markers.filter((name) => name.startsWith("$ACTION_ID_")).map((name) => name.slice("$ACTION_ID_".length));
  if (ids.length !== 1 || markers.length !== 1) return NO_ACTION;
  const known = knownAction(ids[0]);
  return known === true ? null : known === false ? OUT_OF_DATE : NO_ACTION;
}

/** True for an action of this build, false for a well-formed id of another build, null for no id at all. */
function knownAction(id: string): boolean | null {
  if (!ACTION_ID.test(id)) return null;
  const ids = buildActionIds();
  return ids === null || ids.has(id);
}

// Next's ids are 42 hex digits (an info byte and a hash).
const ACTION_ID = /^[0-9a-f]{42}$/;
let actionIds: Set<string> | null | undefined;

// The build's own list of actions; in development it grows as pages compile, so only a production build is read.
function buildActionIds(): Set<string> | null {
  if (actionIds !== undefined) return actionIds;
  actionIds = null;
  if (process.env.NODE_ENV !== "production") return actionIds;
  try {
    const manifest = JSON.parse(
      readFileSync(join(process.cwd(), ".next", "server", "server-reference-manifest.json"), "utf8"),
    ) as { node?: Record<string, unknown> };
    if (manifest.node) actionIds = new Set(Object.keys(manifest.node));
  } catch {
    // No manifest (a test importing the proxy directly): Next's own lookup decides.
  }
  return actionIds;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

// The reply strings the site's forms can produce: escaped text, the special numbers, dates, big integers, and
// references to another part of the same request (a form's fields, a value). Maps, sets, blobs, streams, server
// references and symbols are never arguments of this site's actions, and React's decoder throws on a dangling one.
const SELF_CONTAINED = /^\$(\$|undefined$|NaN$|Infinity$|-Infinity$|-0$|D|n-?\d+$)/;
const PART_REFERENCE = /^\$[@K]?([0-9a-f]+)(:[^:]+)*$/;

function acceptableString(value: string, parts: ReadonlySet<string>): boolean {
  if (!value.startsWith("$") || SELF_CONTAINED.test(value)) return true;
  const reference = PART_REFERENCE.exec(value);
  if (!reference) return false;
  // `$K<id>` names a prefix of form fields (none is an empty form); the others must name a part that is there.
  return value.startsWith("$K") || parts.has(String(parseInt(reference[1], 16)));
}

/** Walks without recursion, so the check itself cannot overflow the stack it protects. */
function acceptableReply(root: unknown, parts: ReadonlySet<string>): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === "number" && !Number.isFinite(value)) return false;
    if (typeof value === "string" && !acceptableString(value, parts)) return false;
    if (value === null || typeof value !== "object") continue;
    if (depth > MAX_ACTION_NESTING) return false;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return true;
}
