ALTER TYPE "public"."review_decision" ADD VALUE 'hid a buyer review';--> statement-breakpoint
CREATE TABLE "buyer_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"payer" text NOT NULL,
	"payee" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"rating" smallint NOT NULL,
	"text" text NOT NULL,
	"text_hash" text NOT NULL,
	"signature" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoke_signature" text,
	"hidden_at" timestamp with time zone,
	"hidden_by" uuid,
	"hidden_reason" text,
	"response" text,
	"responded_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "listing_reviews" ADD COLUMN "buyer_review_id" uuid;--> statement-breakpoint
ALTER TABLE "buyer_reviews" ADD CONSTRAINT "buyer_reviews_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_reviews" ADD CONSTRAINT "buyer_reviews_hidden_by_users_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "buyer_reviews_sale_key" ON "buyer_reviews" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "buyer_reviews_listing_idx" ON "buyer_reviews" USING btree ("listing_id","created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "listing_reviews" ADD CONSTRAINT "listing_reviews_buyer_review_id_buyer_reviews_id_fk" FOREIGN KEY ("buyer_review_id") REFERENCES "public"."buyer_reviews"("id") ON DELETE set null ON UPDATE no action;