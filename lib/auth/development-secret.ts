// The Auth.js secret of a development server started without AUTH_SECRET: created once, kept in .data/ (mode
// 0600), and read by every copy of the auth module. `next dev` loads server modules more than once (the route
// handlers' bundle and the pages' each have their own), so a secret drawn per module signed a cookie that the
// other copy could not read: sign-in lasted until the next page. Production never gets here (lib/env.ts
// requires AUTH_SECRET there).
//
// Every path below is marked `turbopackIgnore`: a path built at run time is otherwise read by the build's file
// tracer as "any file of the project", and the standalone folder then carried the whole checkout, .data/ (this
// very secret, the embedded database) included. The file is local state, never something the server ships.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const DEVELOPMENT_SECRET_FILE = ".data/development-auth-secret";

function read(file: string): string | null {
  try {
    const text = fs.readFileSync(/* turbopackIgnore: true */ file, "utf8").trim();
    return text.length >= 32 ? text : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** The development secret in `file` (relative to the working directory), written first if there is none. */
export function developmentSecret(file = DEVELOPMENT_SECRET_FILE): string {
  const target = path.resolve(/* turbopackIgnore: true */ process.cwd(), file);
  const existing = read(target);
  if (existing) return existing;
  fs.mkdirSync(/* turbopackIgnore: true */ path.dirname(target), { recursive: true, mode: 0o700 });
  // Written whole under a temporary name, then linked into place: link fails when another process got there
  // first, so two processes starting at once both end up with the same secret, never a half-written one.
  const temporary = `${target}.${process.pid}.${randomBytes(4).toString("hex")}`;
  fs.writeFileSync(/* turbopackIgnore: true */ temporary, `${randomBytes(32).toString("base64url")}\n`, {
    mode: 0o600,
  });
  try {
    fs.linkSync(/* turbopackIgnore: true */ temporary, /* turbopackIgnore: true */ target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(/* turbopackIgnore: true */ temporary, { force: true });
  }
  const secret = read(target);
  if (!secret)
    throw new Error(`${DEVELOPMENT_SECRET_FILE} is empty or too short: delete it and start again, or set AUTH_SECRET`);
  return secret;
}
