// How URLs name a listing: its slug is the one canonical spelling. An id (whatever its letter case, which
// PostgreSQL's uuid ignores) only redirects there, so no listing is rendered or cached under more than one key.

const LISTING_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A listing id in any letter case. */
export function isListingId(key: string): boolean {
  return LISTING_ID.test(key);
}
