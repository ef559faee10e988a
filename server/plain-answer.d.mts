// Types for the preloads' plain answers (plain JavaScript so that `node --import` can load it without a build step).
/** Every code a plain answer carries, with its status and the title of a browser's page. */
export declare const PLAIN_CODES: {
  readonly invalid_address: { status: 400; title: string };
  readonly invalid_form: { status: 400; title: string };
  readonly unknown_action: { status: 400; title: string };
  readonly cross_site_request: { status: 403; title: string };
  readonly not_found: { status: 404; title: string };
  readonly method_not_allowed: { status: 405; title: string };
  readonly stale_action: { status: 409; title: string };
  readonly body_too_large: { status: 413; title: string };
  readonly unsupported_media_type: { status: 415; title: string };
  readonly internal_error: { status: 500; title: string };
  readonly unavailable: { status: 503; title: string };
  readonly overloaded: { status: 503; title: string };
  readonly busy: { status: 503; title: string };
  readonly restarting: { status: 503; title: string };
};
export type PlainCode = keyof typeof PLAIN_CODES;
/** What was asked: the method, the path (no query) and the Accept header. */
export type PlainRequest = { method: string; path: string; accept?: string | null };
export type PlainOptions = { code: PlainCode; message: string; headers?: Record<string, string>; retry?: boolean };
/** The status, headers and body (none for HEAD) of a refusal. */
export declare function plainAnswer(
  request: PlainRequest,
  options: PlainOptions,
): { status: number; headers: Record<string, string>; body: string | undefined };
export declare function pathOf(url?: string): string;
