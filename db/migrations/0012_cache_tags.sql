CREATE TABLE "cache_tags" (
	"tag" text PRIMARY KEY NOT NULL,
	"revalidated_at" timestamp with time zone DEFAULT now() NOT NULL
);
