// npm run admin:grant -- <user-id | github:<numeric id> | verified email> — gives one existing account the admin role.
// GitHub logins are not accepted (they can be renamed and taken over), nor unproven email addresses.
import { openConfiguredDatabase } from "./support/database";
import { grantAdmin, parseAdminGrantee } from "@/db/queries/users";

const who = parseAdminGrantee(process.argv[2] ?? "");
if (!who) {
  console.error(
    [
      "Usage: npm run admin:grant -- <who>",
      "  <who> is one of:",
      "    a user id (uuid), as shown in the database's users table",
      "    github:<numeric id>, GitHub's user id (https://api.github.com/users/<login> shows it)",
      "    an email address the account has confirmed (its verification link, a reset link, or GitHub/Google)",
    ].join("\n"),
  );
  process.exit(2);
}
const conn = await openConfiguredDatabase();
const userId = await grantAdmin(conn.db, who);
await conn.close();
if (!userId) {
  const hint =
    who.by === "email"
      ? `No account has confirmed the address "${who.value}". Unconfirmed addresses count for nothing: confirm it first, or name the user id.`
      : `No account with ${who.by === "id" ? "the user id" : "the GitHub id"} "${who.value}". Sign in once, then grant again.`;
  console.error(hint);
  process.exit(1);
}
console.log(`User ${userId} is now an admin.`);
