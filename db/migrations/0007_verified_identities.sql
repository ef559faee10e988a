CREATE TABLE "email_verification_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "users_email_key";--> statement-breakpoint
DROP INDEX "users_github_login_key";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "github_id" text;--> statement-breakpoint
-- Backfill (issue 15): GitHub's numeric id from the account link; an address counts as proven when a provider
-- vouched for it (GitHub and Google addresses are stored only when verified) or its owner completed a reset
-- link mailed to it. Every other password account starts unverified and is asked to verify.
UPDATE "users" SET "github_id" = a."provider_account_id" FROM "accounts" a WHERE a."user_id" = "users"."id" AND a."provider" = 'github';--> statement-breakpoint
UPDATE "users" SET "email_verified_at" = "users"."created_at" WHERE "users"."email" IS NOT NULL AND EXISTS (SELECT 1 FROM "accounts" a WHERE a."user_id" = "users"."id");--> statement-breakpoint
UPDATE "users" SET "email_verified_at" = t."first_used" FROM (SELECT "user_id", min("used_at") AS "first_used" FROM "password_reset_tokens" WHERE "used_at" IS NOT NULL GROUP BY "user_id") t WHERE t."user_id" = "users"."id" AND "users"."email" IS NOT NULL AND "users"."email_verified_at" IS NULL;--> statement-breakpoint
ALTER TABLE "email_verification_tokens" ADD CONSTRAINT "email_verification_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_verification_tokens_token_hash_key" ON "email_verification_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_verification_tokens_user_idx" ON "email_verification_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "rate_limits_reset_at_idx" ON "rate_limits" USING btree ("reset_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_verified_email_key" ON "users" USING btree (lower("email")) WHERE "users"."email_verified_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_password_email_key" ON "users" USING btree (lower("email")) WHERE "users"."password_hash" is not null;--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_github_login_idx" ON "users" USING btree (lower("github_login"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_github_id_key" ON "users" USING btree ("github_id");