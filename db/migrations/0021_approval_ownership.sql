-- When each listing was approved: sales and buyer reviews decide who first named a wallet among approved listings
-- by it. Listings approved before the column: their latest approval decision, else their creation (imports and
-- seeded listings were approved as they were created).
ALTER TABLE "listings" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
UPDATE "listings" l SET "approved_at" = coalesce(
  (SELECT max(r."created_at") FROM "listing_reviews" r WHERE r."listing_id" = l."id" AND r."decision" = 'approved'),
  l."created_at"
) WHERE l."status" = 'approved';
