// The signed-in person for pages and server actions (browser sessions; programs use bearer tokens).
import { cookies } from "next/headers";
import { getDb } from "@/lib/database";
import type { User } from "@/db/schema";
import { findUserById } from "@/db/queries/users";
import { ApiError } from "@/lib/errors";
import { auth, signOut } from "./authjs";
import { isSessionCookieName } from "@/lib/session-cookie";

export const SESSION_EXPIRED_MESSAGE = "Your session has expired. Please sign in again.";

export async function currentUserId(): Promise<string | null> {
  return (await auth())?.user?.id ?? null;
}

export async function currentUser(): Promise<User | null> {
  const id = await currentUserId();
  return id ? ((await findUserById(await getDb(), id)) ?? null) : null;
}

/**
 * For server actions: the user id, or a 401. A session cookie that no longer matches a live session
 * (ended elsewhere, expired, password reset) is cleared on the way, so the page shows the signed-out view.
 */
export async function requireSessionUserId(): Promise<string> {
  const id = await currentUserId();
  if (id) return id;
  const jar = await cookies();
  if (jar.getAll().some((c) => isSessionCookieName(c.name))) await signOut({ redirect: false });
  throw new ApiError(401, SESSION_EXPIRED_MESSAGE, { code: "session_expired" });
}
