// The admin role: granted in the database (npm run admin:grant) or named in ADMIN_EMAILS / ADMIN_GITHUB_LOGINS.
import type { User } from "@/db/schema";
import { ApiError } from "@/lib/errors";
import { env } from "@/lib/env";
import { currentUser, requireSessionUserId } from "./current-user";

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

/** For admin actions: 401 without a session, 403 for anyone who is not an admin. */
export async function requireAdmin(): Promise<User> {
  await requireSessionUserId();
  const user = await currentUser();
  if (!user || !isAdmin(user)) throw new ApiError(403, "Only admins can do this.");
  return user;
}
