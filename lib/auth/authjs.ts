// Auth.js (next-auth 5): GitHub, optional Google, and email + password, with JWT cookies that carry only
// a revocable session secret (see ./sessions.ts). Its routes live under /api/nextauth so that /api/auth/*
// stays free for the product's JSON API.
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import type { Provider } from "next-auth/providers";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { clientIp } from "@/lib/http/client-address";
import { logWarn } from "@/lib/log";
import { pinAuthUrl } from "@/lib/public-origin";
import { authLogger } from "./auth-log";
import { signInSchema } from "@/lib/validations/auth";
import { developmentSecret, DEVELOPMENT_SECRET_FILE } from "./development-secret";
import { fetchGitHubProfile, githubEndpoints, githubIdentity, GITHUB_SCOPE, type GitHubProfile } from "./github";
import { claimOnGitHubSignIn } from "@/lib/claims/github";
import { oauthSignInProblem, resolveOAuthUser, type OAuthIdentity } from "./oauth-accounts";
import { INVALID_CREDENTIALS, verifyPasswordSignIn } from "./password-accounts";
import { browserSessionUserId, closeBrowserSession, openBrowserSession, SESSION_MAX_AGE_SECONDS } from "./sessions";

export const AUTH_BASE_PATH = "/api/nextauth";
/** Where the browser lands when a sign-in finishes, and where Auth.js reports its failures. */
export const CALLBACK_PAGE = "/auth/callback";

/** A refused email + password sign-in, carrying the reason (wrong credentials or a rate limit). */
export class PasswordSignInRefused extends CredentialsSignin {
  constructor(readonly refusal: ApiError) {
    super(refusal.message);
    this.code = refusal.status === 429 ? "rate_limited" : "invalid_credentials";
  }
}

declare module "next-auth" {
  interface Session {
    user: { id: string };
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    /** The session secret whose digest is in the `sessions` table. */
    sid?: string;
  }
}

/** Which OAuth providers this deployment offers (each needs its credentials). */
export function oauthProviders(): { github: boolean; google: boolean } {
  const e = env();
  return {
    github: Boolean(e.AUTH_GITHUB_ID && e.AUTH_GITHUB_SECRET),
    google: Boolean(e.AUTH_GOOGLE_ID && e.AUTH_GOOGLE_SECRET),
  };
}

function providers(): Provider[] {
  const offered = oauthProviders();
  const list: Provider[] = [];
  if (offered.github) {
    const endpoints = githubEndpoints();
    list.push(
      // Endpoints as objects: a string `authorization` would drop the scope (see STACK.md).
      GitHub({
        issuer: endpoints.issuer,
        authorization: { url: endpoints.authorize, params: { scope: GITHUB_SCOPE } },
        token: endpoints.token,
        userinfo: {
          url: endpoints.user,
          request: ({ tokens }: { tokens: { access_token?: string } }) => fetchGitHubProfile(tokens.access_token!),
        },
      }),
    );
  }
  if (offered.google) list.push(Google);
  list.push(
    Credentials({
      id: "password",
      name: "Email and password",
      credentials: { email: {}, password: {} },
      async authorize(credentials, request) {
        const parsed = signInSchema.safeParse(credentials);
        if (!parsed.success)
          throw new PasswordSignInRefused(new ApiError(401, INVALID_CREDENTIALS, { code: "invalid_credentials" }));
        try {
          const user = await verifyPasswordSignIn(await getDb(), parsed.data, clientIp(request));
          return { id: user.id, name: user.name, email: user.email };
        } catch (error) {
          if (error instanceof ApiError) throw new PasswordSignInRefused(error);
          throw error;
        }
      },
    }),
  );
  return list;
}

/** The provider's account as our identity; null for the password provider. */
function oauthIdentity(provider: string, profile: unknown): OAuthIdentity | null {
  if (provider === "github") return githubIdentity(profile as GitHubProfile);
  if (provider === "google") {
    const p = profile as { sub: string; name?: string; email?: string; email_verified?: boolean; picture?: string };
    return {
      provider,
      providerAccountId: p.sub,
      name: p.name ?? null,
      email: p.email_verified ? (p.email ?? null) : null,
      image: p.picture ?? null,
    };
  }
  return null;
}

// Development without AUTH_SECRET shares one secret kept in .data/ (./development-secret.ts); production refuses
// to start without AUTH_SECRET (lib/env.ts), and is refused here too should it get this far.
let devSecret: string | undefined;
function secret(): string {
  const { AUTH_SECRET, NODE_ENV } = env();
  if (AUTH_SECRET) return AUTH_SECRET;
  if (NODE_ENV === "production") throw new Error("AUTH_SECRET: is required in production (openssl rand -base64 32)");
  if (!devSecret) {
    devSecret = developmentSecret();
    logWarn(`AUTH_SECRET is not set: using the development secret in ${DEVELOPMENT_SECRET_FILE}`);
  }
  return devSecret;
}

function config(): NextAuthConfig {
  pinAuthUrl();
  return {
    basePath: AUTH_BASE_PATH,
    secret: secret(),
    providers: providers(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    // Auth.js sends failures to `pages.signIn` or `pages.error` with `?error=<type>`; both land on the callback screen.
    pages: { signIn: CALLBACK_PAGE, error: CALLBACK_PAGE },
    callbacks: {
      async signIn({ account, profile }) {
        const identity = account && oauthIdentity(account.provider, profile);
        if (!identity) return true;
        const problem = await oauthSignInProblem(await getDb(), identity);
        return problem ? `${CALLBACK_PAGE}?${new URLSearchParams({ error: problem })}` : true;
      },
      async jwt({ token, user, account, profile, trigger }) {
        const db = await getDb();
        if ((trigger === "signIn" || trigger === "signUp") && account && user) {
          const identity = oauthIdentity(account.provider, profile);
          const userId = identity ? await resolveOAuthUser(db, identity) : user.id!;
          // A GitHub sign-in claims the imported listings its account and owned organisations publish.
          if (account.provider === "github")
            await claimOnGitHubSignIn(db, userId, (profile as unknown as GitHubProfile).login, account.access_token);
          return { sub: userId, sid: await openBrowserSession(db, userId) };
        }
        // Every later read: the session must still exist server-side, or the cookie is cleared.
        if (!token.sid || !token.sub || (await browserSessionUserId(db, token.sid)) !== token.sub) return null;
        return token;
      },
      session({ session, token }) {
        // Only the id reaches the browser; the session secret never does.
        return { expires: session.expires, user: { id: token.sub! } } as typeof session;
      },
    },
    events: {
      async signOut(message) {
        const sid = "token" in message ? message.token?.sid : undefined;
        if (sid) await closeBrowserSession(await getDb(), sid);
      },
    },
    logger: authLogger,
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => config());
