// What each error `code` means, for the API description: a new code in lib/errors.ts does not compile until it
// is explained here.
import type { ErrorCode } from "@/lib/errors";

export const ERROR_CODE_MEANINGS: Record<ErrorCode, string> = {
  invalid_request: "The request is malformed (a 400 without a more precise code).",
  invalid_input: "A parameter or a body field was refused; `errors` names each with its messages.",
  invalid_json: "The body is not valid JSON.",
  invalid_cursor: "The paging cursor is not one this API gave.",
  unstorable_text: "The text holds characters that cannot be stored (such as a NUL byte).",
  invalid_address: "The address cannot be read (malformed percent-encoding, or no path at all).",
  invalid_form: "A server action's body is not a form submission this site can decode.",
  unknown_action: "A form submission names no server action of this site.",
  unauthorized: "Not signed in (a 401 without a more precise code).",
  sign_in_required: "No `Authorization: Bearer <token>` header.",
  invalid_token: "The API token is invalid, expired or revoked.",
  invalid_credentials: "The e-mail or the password is wrong.",
  session_expired: "The session or the link has expired.",
  forbidden: "Signed in, but not allowed to do this.",
  cross_site_request:
    "A state change sent from another site (Origin or Sec-Fetch-Site): a browser may change state only from this site.",
  method_not_allowed:
    "This address answers other methods (`Allow` names them): the registry and discovery routes are read-only.",
  not_found: "Nothing at this address (the listing, server or version does not exist or is not approved).",
  conflict: "The request conflicts with the current state.",
  email_taken: "An account with this e-mail exists.",
  duplicate_server: "A listing with this server URL exists.",
  stale_action: "The page that sent this form is from an earlier deployment: reload it and try again.",
  body_too_large: "The body is larger than the route accepts.",
  unsupported_media_type: "The body must be sent as `Content-Type: application/json`.",
  rate_limited: "Too many requests from this address: wait for `Retry-After` seconds.",
  internal_error: "Something failed on Agora's side; the message says nothing more.",
  upstream_failed: "A service Agora depends on (GitHub, the mailing list) failed.",
  unavailable: "The service is briefly unavailable (the database is restarting): retry after `Retry-After` seconds.",
  busy: "The server is busy hashing passwords: retry after `Retry-After` seconds.",
  overloaded:
    "The server is working on as many requests as it can (or as this address may hold at once): retry after `Retry-After` seconds.",
  restarting: "This server is shutting down for a restart or a deployment: retry after `Retry-After` seconds.",
};
