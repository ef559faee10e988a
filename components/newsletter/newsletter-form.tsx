"use client";
import { useEffect, useState } from "react";
import { useHydrated } from "@/components/hooks/use-hydrated";
import { useForm, type Resolver } from "react-hook-form";
import { CheckCircle2, Loader2, XCircle } from "lucide-react";
import type { NewsletterInput } from "@/lib/validations/newsletter";

type Status = "idle" | "loading" | "success" | "error";
const RESET_AFTER_MS = 5000;
// The Input and the large Button's classes, written out as cn() resolved them (tailwind-merge dropped the input's
// h-9 for h-11 and the button's text-sm for text-base), so the home page's first load does not carry tailwind-merge
// (lib/class-names.ts says why).
const EMAIL_INPUT =
  "placeholder:text-muted-foreground border-input flex w-full min-w-0 rounded-md border bg-white px-3 py-1 text-base shadow-xs transition-[color,box-shadow] outline-none disabled:cursor-not-allowed disabled:opacity-50 md:text-sm focus-visible:border-ring focus-visible:ring-ring/50 focus-visible:ring-[3px] aria-invalid:ring-destructive/20 aria-invalid:border-destructive h-11";
const SUBSCRIBE_BUTTON =
  "inline-flex items-center justify-center gap-2 whitespace-nowrap font-medium transition-all disabled:pointer-events-none disabled:opacity-50 [&_svg]:pointer-events-none [&_svg:not([class*='size-'])]:size-4 shrink-0 [&_svg]:shrink-0 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:border-ring aria-invalid:border-destructive bg-primary text-primary-foreground shadow-xs hover:bg-primary/90 h-11 rounded-md px-6 text-base has-[>svg]:px-4";

// The shared zod schema and its resolver (~45 kB gzip) load on first use, not with the home page:
// focusing the field starts the download, and a submit waits for it if it has not finished.
const loadResolver = () =>
  Promise.all([import("@hookform/resolvers/zod"), import("@/lib/validations/newsletter")]).then(
    ([{ zodResolver }, { newsletterSchema }]) => zodResolver(newsletterSchema),
  );
let resolverPromise: ReturnType<typeof loadResolver> | undefined;
// A failed download (offline for a moment) is retried on the next attempt.
const preloadResolver = () =>
  (resolverPromise ??= loadResolver().catch((error: unknown) => {
    resolverPromise = undefined;
    throw error;
  }));
const lazyResolver: Resolver<NewsletterInput> = async (values, context, options) =>
  (await preloadResolver())(values, context, options);

export function NewsletterForm() {
  const [status, setStatus] = useState<Status>("idle");
  // Until React has hydrated, a submit would be a plain GET that reloads the page: keep it disabled.
  const ready = useHydrated();
  const { register, handleSubmit, reset, formState } = useForm<NewsletterInput>({
    resolver: lazyResolver,
    defaultValues: { email: "" },
  });

  // Success and error messages fall back to idle after five seconds.
  useEffect(() => {
    if (status !== "success" && status !== "error") return;
    const timer = setTimeout(() => setStatus("idle"), RESET_AFTER_MS);
    return () => clearTimeout(timer);
  }, [status]);

  async function onSubmit(values: NewsletterInput) {
    setStatus("loading");
    try {
      const response = await fetch("/api/mailchimp/member", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(values),
      });
      setStatus(response.status === 200 ? "success" : "error");
    } catch {
      setStatus("error");
    }
    reset({ email: "" });
  }

  const error = formState.errors.email?.message;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="w-full max-w-md" aria-label="Newsletter sign-up">
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor="newsletter-email" className="sr-only">
          Email address
        </label>
        <input
          id="newsletter-email"
          data-slot="input"
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "newsletter-email-error" : "newsletter-status"}
          className={EMAIL_INPUT}
          onFocus={preloadResolver}
          {...register("email")}
        />
        <button type="submit" data-slot="button" className={SUBSCRIBE_BUTTON} disabled={!ready || status === "loading"}>
          {status === "loading" && <Loader2 className="animate-spin" />}
          {status === "loading" ? "Subscribing..." : "Subscribe"}
        </button>
      </div>
      <div className="mt-2 min-h-6 text-sm" aria-live="polite" id="newsletter-status">
        {error && (
          <p id="newsletter-email-error" className="text-destructive">
            {error}
          </p>
        )}
        {status === "success" && (
          <p className="flex items-center gap-1.5 font-medium text-[#047857]">
            <CheckCircle2 className="size-4" /> Successfully subscribed!
          </p>
        )}
        {status === "error" && (
          <p className="flex items-center gap-1.5 font-medium text-[#dc2626]">
            <XCircle className="size-4" /> Subscription failed. Please try again.
          </p>
        )}
      </div>
    </form>
  );
}
