-- Pending edits (issue 42): an owner's edit of an approved listing waits for review in its own row, with its own check,
-- while the approved version stays in the catalogue; decisions on such edits are kept in the history as their own kinds.
ALTER TYPE "public"."review_decision" ADD VALUE 'approved an edit';--> statement-breakpoint
ALTER TYPE "public"."review_decision" ADD VALUE 'rejected an edit';--> statement-breakpoint
CREATE TABLE "listing_edits" (
	"listing_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"server_url" text NOT NULL,
	"website_url" text,
	"revision" integer NOT NULL,
	"status" "review_status" DEFAULT 'pending' NOT NULL,
	"rejection_reason" text,
	"check" jsonb,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "listing_edits" ADD CONSTRAINT "listing_edits_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;