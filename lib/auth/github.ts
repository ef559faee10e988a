// GitHub as a sign-in provider: endpoints (configurable for tests), the profile with a verified e-mail,
// and the code exchange for programs that run the OAuth redirect themselves.
import type { Db } from "@/db/types";
import type { User } from "@/db/schema";
import { findUserById } from "@/db/queries/users";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { claimOnGitHubSignIn } from "@/lib/claims/github";
import { issueApiToken, SIGN_IN_TOKEN_DAYS, type IssuedToken } from "./api-tokens";
import { EMAIL_TAKEN_MESSAGE, oauthSignInProblem, resolveOAuthUser, type OAuthIdentity } from "./oauth-accounts";

export const GITHUB_SCOPE = "read:user user:email";
// Asked for only by the claim page's sign-in (lib/claims): lets that sign-in read which organisations the person
// owns, to claim their io.github.<org> listings. Every other sign-in asks for the email scope the spec names.
export const GITHUB_CLAIM_SCOPE = `${GITHUB_SCOPE} read:org`;
const GITHUB_FAILED_MESSAGE = "Failed to authenticate with GitHub. Please try again.";
const TIMEOUT_MS = 10_000;

export function githubEndpoints() {
  const { GITHUB_OAUTH_URL: web, GITHUB_API_URL: api } = env();
  return {
    issuer: `${web}/login/oauth`,
    authorize: `${web}/login/oauth/authorize`,
    token: `${web}/login/oauth/access_token`,
    user: `${api}/user`,
    emails: `${api}/user/emails`,
  };
}

export type GitHubProfile = {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
  email_verified: boolean;
  avatar_url: string | null;
};

async function getJson<T>(url: string, accessToken: string): Promise<{ ok: boolean; body: T | null }> {
  const res = await fetch(url, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/vnd.github+json", "User-Agent": "agora" },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { ok: res.ok, body: res.ok ? ((await res.json()) as T) : null };
}

/** The user's profile plus their primary e-mail and whether GitHub has verified it (scope user:email). */
export async function fetchGitHubProfile(accessToken: string): Promise<GitHubProfile> {
  const { user: userUrl, emails: emailsUrl } = githubEndpoints();
  const user = await getJson<{
    id: number;
    login: string;
    name?: string | null;
    email?: string | null;
    avatar_url?: string | null;
  }>(userUrl, accessToken);
  if (!user.ok || !user.body || typeof user.body.id !== "number")
    throw new Error("GitHub did not return the user's profile");
  const emails = await getJson<{ email: string; primary: boolean; verified: boolean }[]>(emailsUrl, accessToken).catch(
    () => ({ ok: false, body: null }),
  );
  const primary = Array.isArray(emails.body) ? (emails.body.find((e) => e.primary) ?? emails.body[0]) : undefined;
  return {
    id: user.body.id,
    login: user.body.login,
    name: user.body.name ?? null,
    email: primary?.email ?? user.body.email ?? null,
    // GitHub shows only verified addresses on a public profile.
    email_verified: primary ? primary.verified : Boolean(user.body.email),
    avatar_url: user.body.avatar_url ?? null,
  };
}

export function githubIdentity(profile: GitHubProfile): OAuthIdentity {
  return {
    provider: "github",
    providerAccountId: String(profile.id),
    name: profile.name || profile.login,
    // An unverified address is not kept: it would block its real owner from registering it.
    email: profile.email_verified ? profile.email : null,
    image: profile.avatar_url,
    githubLogin: profile.login,
  };
}

/** GitHub answers a bad code with 200 and `{error}`, so the body decides, not the status. */
async function exchangeCode(code: string, codeVerifier?: string): Promise<string> {
  const { AUTH_GITHUB_ID, AUTH_GITHUB_SECRET } = env();
  const res = await fetch(githubEndpoints().token, {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded", "User-Agent": "agora" },
    body: new URLSearchParams({
      client_id: AUTH_GITHUB_ID!,
      client_secret: AUTH_GITHUB_SECRET!,
      code,
      ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
    }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body = (await res.json().catch(() => null)) as { access_token?: string; error?: string } | null;
  if (!res.ok || !body?.access_token) throw new ApiError(401, GITHUB_FAILED_MESSAGE);
  return body.access_token;
}

/** POST /api/auth/callback: a GitHub authorization code in, an API token out. */
export async function signInWithGitHubCode(
  db: Db,
  input: { code: string; codeVerifier?: string },
  ip: string,
): Promise<{ user: User; issued: IssuedToken }> {
  const { AUTH_GITHUB_ID, AUTH_GITHUB_SECRET } = env();
  if (!AUTH_GITHUB_ID || !AUTH_GITHUB_SECRET)
    throw new ApiError(503, "GitHub sign-in is not configured on this server.");
  await enforceLimit(db, limits.codeExchangesPerIp, ip);
  let profile: GitHubProfile;
  let accessToken: string;
  try {
    accessToken = await exchangeCode(input.code, input.codeVerifier);
    profile = await fetchGitHubProfile(accessToken);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(502, GITHUB_FAILED_MESSAGE);
  }
  const identity = githubIdentity(profile);
  const problem = await oauthSignInProblem(db, identity);
  if (problem) throw new ApiError(409, EMAIL_TAKEN_MESSAGE, { code: "email_taken" });
  const userId = await resolveOAuthUser(db, identity);
  await claimOnGitHubSignIn(db, userId, profile.login, accessToken);
  const issued = await issueApiToken(db, {
    userId,
    kind: "sign_in",
    name: "GitHub sign-in (API)",
    days: SIGN_IN_TOKEN_DAYS,
  });
  return { user: (await findUserById(db, userId))!, issued };
}
