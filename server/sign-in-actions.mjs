// The server actions that check a password, by id. Next runs a server action posted to any page of the app, not
// only the page whose form calls it: the sign-in action posted to `/` or a detail page is a password check all
// the same, and one the sign-in door (server/overload.mjs) must see as a sign-in. Its id is in a public script,
// so any client can do that. The build's server-reference-manifest.json names, for each action id, the module
// it is exported from; the actions of these modules are the sign-ins.
import fs from "node:fs";
import path from "node:path";
import { log } from "./plain-answer.mjs";

/** The modules whose actions check a password (sign in, register, set a new password). */
export const PASSWORD_ACTION_MODULES = ["lib/actions/sign-in-with-email.ts", "lib/actions/register-account.ts", "lib/actions/reset-password.ts"];

/** The ids of the build's password-checking actions in `dir` (a source tree's or the standalone server's). */
export function signInActionIds(dir) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, ".next", "server", "server-reference-manifest.json"), "utf8"));
  } catch {
    return new Set(); // no build (a unit test's server): only the sign-in paths are known
  }
  const ids = new Set();
  const found = new Set();
  for (const runtime of [manifest.node ?? {}, manifest.edge ?? {}]) {
    for (const [id, entry] of Object.entries(runtime)) {
      const source = PASSWORD_ACTION_MODULES.find((file) => sameModule(entry?.filename, file));
      if (!source) continue;
      ids.add(id);
      found.add(source);
    }
  }
  // A module renamed or moved would leave its action outside the door unnoticed: say so at start-up.
  const missing = PASSWORD_ACTION_MODULES.filter((file) => !found.has(file));
  if (missing.length > 0) log("warn", "sign-in door: no action found in the build for these modules", { missing });
  return ids;
}

function sameModule(filename, file) {
  if (typeof filename !== "string") return false;
  const normal = filename.replaceAll("\\", "/").replace(/^\.\//, "");
  return normal === file || normal.endsWith(`/${file}`);
}
