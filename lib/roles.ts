// Who is an admin: the role in the database (npm run admin:grant), a GitHub numeric id in ADMIN_GITHUB_IDS,
// or an address in ADMIN_EMAILS that its holder has proven. GitHub logins and unproven addresses count for
// nothing: a login can be renamed and taken over, and anyone can register anyone's address.
import type { User } from "@/db/schema";
import { env } from "@/lib/env";

function listed(value: string | undefined): Set<string> {
  return new Set(
    (value ?? "")
      .split(",")
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean),
  );
}

export function isAdmin(
  user: Pick<User, "role" | "email" | "emailVerifiedAt" | "githubId"> | null | undefined,
): boolean {
  if (!user) return false;
  if (user.role === "admin") return true;
  const { ADMIN_EMAILS, ADMIN_GITHUB_IDS } = env();
  return (
    (!!user.githubId && listed(ADMIN_GITHUB_IDS).has(user.githubId)) ||
    (!!user.email && !!user.emailVerifiedAt && listed(ADMIN_EMAILS).has(user.email.toLowerCase()))
  );
}
