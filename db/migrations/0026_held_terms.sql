-- A check that finds a listed server raising its price past the review factor, or naming another payee, is kept with
-- its terms held: the approved terms stay on every surface until a reviewer approves the change. Its drift records say
-- so (a payee change always went to review).
ALTER TABLE "listing_drift" ADD COLUMN "held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_probes" ADD COLUMN "terms_held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "listing_drift" SET "held" = true WHERE "kind" = 'wallet';
