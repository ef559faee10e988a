-- How each sale was paid (exact, metered through x402's upto, or a payment channel's claim) and what the listing
-- asked for it (price, maximum, or a channel's price of one call), for the wallet page's "up to $X, paid $Y" and
-- "N calls". Sales stored before read as exact with nothing asked.
ALTER TABLE "listing_sales" ADD COLUMN "kind" text DEFAULT 'exact' NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_sales" ADD COLUMN "asked_units" numeric(78, 0);