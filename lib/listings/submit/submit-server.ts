// Saves a provider's server for review: the rules the schema cannot know (deployment, limits, duplicates).
import type { Db } from "@/db/types";
import type { ListingRow } from "@/db/schema";
import { insertListing } from "@/lib/listings/write";
import { unprobedView } from "@/lib/listings/from-rows";
import { violatedUniqueConstraint } from "@/db/unique-violation";
import { toApiAgent } from "@/lib/listings/presenters/api-agent";
import { ApiError } from "@/lib/errors";
import { enforceLimit, limits, type Limit } from "@/lib/rate-limit";
import type { ServerSubmission } from "@/lib/validations/server-submission";
import { listingAtUrl } from "@/db/queries/listings";
import { normalizeServerUrl, serverUrlProblem, serverUrlSpellings } from "./server-url";

const DUPLICATE_SERVER_MESSAGE = "This MCP server URL has already been submitted.";

/** A parsed submission (serverSubmissionSchema's output); one that names no paid tools may leave the two fields out. */
export type Submission = Omit<ServerSubmission, "paidTools" | "readPricesConsent"> &
  Partial<Pick<ServerSubmission, "paidTools" | "readPricesConsent">>;

/** Creates the listing as `pending`; it stays out of the public catalogue until approved. */
export async function submitServer(db: Db, userId: string, input: Submission): Promise<ListingRow> {
  await admitSubmission(db, userId, input);
  await refuseListedServer(db, input.mcpServerUrl);
  try {
    return await insertListing(db, {
      name: input.name,
      description: input.description,
      categories: input.categories,
      serverUrl: normalizeServerUrl(input.mcpServerUrl),
      websiteUrl: input.websiteUrl,
      ...ownerPaidTools(input),
      status: "pending",
      submitterId: userId,
    });
  } catch (error) {
    throw asDuplicateServer(error);
  }
}

/**
 * The tools the owner names as paid, with when they agreed to the unpaid calls that read their prices (the schema
 * refused names without that agreement); no names, no consent time.
 */
export function ownerPaidTools(input: Pick<Submission, "paidTools" | "readPricesConsent">): {
  paidTools: string[];
  paidToolsConsentedAt: Date | null;
} {
  const names = input.paidTools ?? [];
  const named = names.length > 0 && input.readPricesConsent === true;
  return { paidTools: named ? names : [], paidToolsConsentedAt: named ? new Date() : null };
}

/**
 * What every submission (new or edited) must pass first: a server URL this deployment may list, and the daily limit
 * (or `limit`, for a reading of the server that is not a submission).
 */
export async function admitSubmission(
  db: Db,
  userId: string,
  input: Pick<ServerSubmission, "mcpServerUrl">,
  limit: Limit = limits.submissionsPerUser,
): Promise<void> {
  const problem = serverUrlProblem(input.mcpServerUrl);
  if (problem) throw new ApiError(400, problem, { code: "invalid_input", errors: { mcpServerUrl: [problem] } });
  await enforceLimit(db, limit, userId);
}

const duplicateServer = () =>
  new ApiError(409, DUPLICATE_SERVER_MESSAGE, {
    code: "duplicate_server",
    errors: { mcpServerUrl: [DUPLICATE_SERVER_MESSAGE] },
  });

/**
 * The form's 409 for a server already listed under another spelling of its URL (an import keeps its registry's
 * `https://host/`, a submission stores `https://host`), which the unique index, on the exact string, cannot see.
 * `except`: the listing being edited, which may keep its own URL.
 */
export async function refuseListedServer(db: Db, serverUrl: string, except?: string): Promise<void> {
  const listed = await listingAtUrl(db, serverUrlSpellings(serverUrl));
  if (listed && listed.id !== except) throw duplicateServer();
}

/** A write refused by the unique server URL becomes the form's 409; anything else is passed on as it is. */
export function asDuplicateServer(error: unknown): unknown {
  if (violatedUniqueConstraint(error) === "listings_server_url_key") return duplicateServer();
  return error;
}

/** The spec's agent shape for a just-created listing, plus what its submitter needs: URL, status and the tools named paid. */
export function toSubmittedAgent(listing: ListingRow) {
  return {
    ...toApiAgent(unprobedView(listing)),
    mcpServerUrl: listing.serverUrl,
    status: listing.status,
    paidTools: listing.paidTools,
  };
}
