// Who is an admin: the role in the database (npm run admin:grant) or ADMIN_EMAILS / ADMIN_GITHUB_LOGINS.
import type { User } from "@/db/schema";
import { env } from "@/lib/env";

function listed(value: string | undefined): Set<string> {
  return new Set((value ?? "").split(",").map((v) => v.trim().toLowerCase()).filter(Boolean));
}

export function isAdmin(user: Pick<User, "role" | "email" | "githubLogin"> | null | undefined): boolean {
  if (!user) return false;
  if (user.role === "admin") return true;
  const { ADMIN_EMAILS, ADMIN_GITHUB_LOGINS } = env();
  return (
    (!!user.email && listed(ADMIN_EMAILS).has(user.email.toLowerCase())) ||
    (!!user.githubLogin && listed(ADMIN_GITHUB_LOGINS).has(user.githubLogin.toLowerCase()))
  );
}
