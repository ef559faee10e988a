// The server actions that check a password, by id. Next runs a server action posted to any page of the app, not
// only the page whose form calls it: posted to `/` or a detail page, the sign-in action is forwarded by Next, over
// HTTP to its own origin, to a page that has it (`/login/email`). The first request then holds one of the
// ordinary places (a render) for as long as the second waits in the sign-in door, and the second counts against
// the server's own address, not the client's. A burst of them filled every render place (the site answered 503)
// though the door did its work. The action's id is in a public script, so any client can do that.
// The build's server-reference-manifest.json names, for each action id, the module it is exported from and the
// pages ("workers") that have it; the actions of the modules below are sign-ins, and server/overload.mjs sends one
// posted elsewhere straight to a page of its own, in the sign-in door: one request, counted against its client.
import fs from "node:fs";
import path from "node:path";
import { log } from "./plain-answer.mjs";

/** The modules whose actions check a password (sign in, register, set a new password). */
const PASSWORD_ACTION_MODULES = [
  "lib/actions/sign-in-with-email.ts",
  "lib/actions/register-account.ts",
  "lib/actions/reset-password.ts",
];

/**
 * The build's password-checking actions in `dir` (a source tree's or the standalone server's): each id with the
 * paths of the pages that have it (empty when none is a plain path).
 * @returns {Map<string, string[]>}
 */
export function signInActions(dir) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, ".next", "server", "server-reference-manifest.json"), "utf8"));
  } catch {
    return new Map(); // no build (a unit test's server): only the sign-in paths are known
  }
  const actions = new Map();
  const found = new Set();
  for (const runtime of [manifest.node ?? {}, manifest.edge ?? {}]) {
    for (const [id, entry] of Object.entries(runtime)) {
      const source = PASSWORD_ACTION_MODULES.find((file) => sameModule(entry?.filename, file));
      if (!source) continue;
      actions.set(
        id,
        Object.keys(entry.workers ?? {})
          .map(pagePath)
          .filter((p) => p !== null),
      );
      found.add(source);
    }
  }
  // A module renamed or moved would leave its action outside the door unnoticed: say so at start-up.
  const missing = PASSWORD_ACTION_MODULES.filter((file) => !found.has(file));
  if (missing.length > 0) log("warn", "sign-in door: no action found in the build for these modules", { missing });
  return actions;
}

function sameModule(filename, file) {
  if (typeof filename !== "string") return false;
  const normal = filename.replaceAll("\\", "/").replace(/^\.\//, "");
  return normal === file || normal.endsWith(`/${file}`);
}

/** The path a worker page answers (`app/(account)/login/email/page` is `/login/email`); null for a dynamic one. */
function pagePath(worker) {
  const match = /^app((?:\/[^/]+)*)\/page$/.exec(worker);
  if (!match) return null;
  const segments = match[1]
    .split("/")
    .filter((segment) => segment !== "" && !/^\(.*\)$/.test(segment) && !segment.startsWith("@"));
  if (segments.some((segment) => segment.includes("[") || segment.startsWith("("))) return null;
  return `/${segments.join("/")}`;
}
