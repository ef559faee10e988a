// The cache tag of every page and cached read that shows listings (lib/listings/catalogue.ts): an approval, an
// ingestion or a recorded test purchase revalidates it. Kept out of catalogue.ts, which is server-only, so work that
// also runs outside Next (the test purchases the end-to-end fixtures make, scripts) can name it.
export const CATALOGUE_TAG = "listings";
