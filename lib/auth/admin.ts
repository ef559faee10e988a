// Server-side admin checks for pages and actions.
import type { User } from "@/db/schema";
import { ApiError } from "@/lib/errors";
import { currentUser, requireSessionUserId } from "./current-user";
import { isAdmin } from "@/lib/roles";

export { isAdmin };

/** For admin actions: 401 without a session, 403 for anyone who is not an admin. */
export async function requireAdmin(): Promise<User> {
  await requireSessionUserId();
  const user = await currentUser();
  if (!user || !isAdmin(user)) throw new ApiError(403, "Only admins can do this.");
  return user;
}
