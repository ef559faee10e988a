// Signing in with GitHub claims what the official MCP Registry would let that account publish: `io.github.<login>/…`,
// and `io.github.<org>/…` for every organisation whose owner it is. Like the registry, the owner role is read from
// GET /user/memberships/orgs (scope read:org; role "admin" is GitHub's name for an owner), and a token without
// that scope (403) proves the personal namespace only.
import type { Db } from "@/db/types";
import { env } from "@/lib/env";
import { changed } from "@/lib/cache/invalidate";
import { logError } from "@/lib/log";
import { claimCoveredListings } from "./covered";
import { GITHUB_NAME, githubNamespace } from "./namespace";

const PAGE_SIZE = 100;
/** A person owns at most this many organisations' pages' worth (1,000) before the rest are ignored. */
const MAX_PAGES = 10;
const TIMEOUT_MS = 10_000;

type Membership = { state?: string; role?: string; organization?: { login?: string } };

/** The organisations this token's user owns (active membership, role admin). */
async function ownedGitHubOrganisations(accessToken: string): Promise<string[]> {
  const owned: string[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await fetch(
      `${env().GITHUB_API_URL}/user/memberships/orgs?state=active&per_page=${PAGE_SIZE}&page=${page}`,
      {
        headers: {
          Authorization: `Bearer ${accessToken}`,
          Accept: "application/vnd.github+json",
          "X-GitHub-Api-Version": "2022-11-28",
          "User-Agent": "agora",
        },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
    );
    if (res.status === 403) return owned; // no read:org: personal namespace only
    if (!res.ok) throw new Error(`GitHub answered ${res.status} for the organisation memberships`);
    const memberships = (await res.json()) as Membership[];
    if (!Array.isArray(memberships)) throw new Error("GitHub's organisation memberships were not a list");
    for (const m of memberships) {
      const org = m.organization?.login;
      if (m.role === "admin" && m.state === "active" && org && GITHUB_NAME.test(org)) owned.push(org);
    }
    if (memberships.length < PAGE_SIZE) break;
  }
  return owned;
}

/** The namespaces a GitHub sign-in as `login` proves. */
async function githubNamespaces(login: string, accessToken: string): Promise<string[]> {
  if (!GITHUB_NAME.test(login)) return [];
  let orgs: string[] = [];
  try {
    orgs = await ownedGitHubOrganisations(accessToken);
  } catch (error) {
    // The personal namespace is proven by the sign-in itself; organisations wait for the next sign-in.
    logError("could not read GitHub organisation memberships", error, { login });
  }
  return [githubNamespace(login), ...orgs.map(githubNamespace)];
}

/** Claims every unclaimed imported listing the GitHub sign-in proves; never fails the sign-in. */
export async function claimOnGitHubSignIn(
  db: Db,
  userId: string,
  login: string,
  accessToken: string | undefined,
): Promise<string[]> {
  if (!accessToken) return [];
  try {
    const claimed = await claimCoveredListings(db, userId, await githubNamespaces(login, accessToken));
    // Pages that offered "Claim this listing" stop offering it.
    if (claimed.length > 0) await changed("catalogue");
    return claimed;
  } catch (error) {
    logError("could not claim listings on GitHub sign-in", error, { login });
    return [];
  }
}
