// npm run admin:grant -- <email-or-github-login> — gives an existing account the admin role.
import { env } from "@/lib/env";
import { openDatabase } from "../connect";
import { grantAdmin } from "../queries/reviews";

const who = process.argv[2]?.trim();
if (!who) {
  console.error("Usage: npm run admin:grant -- <email-or-github-login>");
  process.exit(2);
}
const { DATABASE_URL, PGLITE_DIR } = env();
const conn = await openDatabase({ databaseUrl: DATABASE_URL, pgliteDir: PGLITE_DIR });
const count = await grantAdmin(conn.db, who);
await conn.close();
if (count === 0) {
  console.error(`No account with the email or GitHub login "${who}". Sign in once, then grant again.`);
  process.exit(1);
}
console.log(`${who} is now an admin.`);
