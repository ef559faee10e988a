"use client";
import { useEffect, useState } from "react";
import { useHydrated } from "@/components/hooks/use-hydrated";
import { CheckCircle2, Loader2, XCircle } from "lucide-react";
import type { NewsletterInput } from "@/lib/validations/newsletter";

type Status = "idle" | "loading" | "success" | "error";
const RESET_AFTER_MS = 5000;
// The Input and the large Button's classes, written out as cn() resolved them (tailwind-merge dropped the input's
// h-9 for h-11 and the button's text-sm for text-base), so the home page's first load does not carry tailwind-merge
// (lib/utils.ts says why).
const EMAIL_INPUT =
  "placeholder:text-muted-foreground border-input flex w-full min-w-0 rounded-md border bg-white px-3 py-1 text-base shadow-xs transition-[color,box-shadow] outline-none disabled:cursor-not-allowed disabled:opacity-50 md:text-sm focus-visible:border-ring focus-visible:ring-ring/50 focus-visible:ring-[3px] aria-invalid:ring-destructive/20 aria-invalid:border-destructive h-11";
const SUBSCRIBE_BUTTON =
  "inline-flex items-center justify-center gap-2 whitespace-nowrap font-medium transition-all disabled:pointer-events-none disabled:opacity-50 [&_svg]:pointer-events-none [&_svg:not([class*='size-'])]:size-4 shrink-0 [&_svg]:shrink-0 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:border-ring aria-invalid:border-destructive bg-primary text-primary-foreground shadow-xs hover:bg-primary/90 h-11 rounded-md px-6 text-base has-[>svg]:px-4";

// The shared zod schema (~40 kB gzip) loads on first use, not with the home page: focusing the field starts the
// download, and a submit waits for it if it has not finished. One field needs no form library either: react-hook-form
// was 14.6 kB of the home page's first load and ~7 ms of its main thread (bench/RESULTS.md, light pages).
const loadSchema = () => import("@/lib/validations/newsletter").then((m) => m.newsletterSchema);
let schemaPromise: ReturnType<typeof loadSchema> | undefined;
// A failed download (offline for a moment) is retried on the next attempt.
const preloadSchema = () =>
  (schemaPromise ??= loadSchema().catch((error: unknown) => {
    schemaPromise = undefined;
    throw error;
  }));

/** The schema's verdict on a typed address: the value to send, or the message to show. */
async function validate(email: string): Promise<{ ok: true; value: NewsletterInput } | { ok: false; message: string }> {
  const parsed = (await preloadSchema()).safeParse({ email });
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, message: parsed.error.issues[0]?.message ?? "Invalid email address" };
}

export function NewsletterForm() {
  const [status, setStatus] = useState<Status>("idle");
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | undefined>();
  // After a refused submit the message follows the typing, as the other forms do (validated again on change).
  const [submitted, setSubmitted] = useState(false);
  // Until React has hydrated, a submit would be a plain GET that reloads the page: keep it disabled.
  const ready = useHydrated();

  // Success and error messages fall back to idle after five seconds.
  useEffect(() => {
    if (status !== "success" && status !== "error") return;
    const timer = setTimeout(() => setStatus("idle"), RESET_AFTER_MS);
    return () => clearTimeout(timer);
  }, [status]);

  async function onChange(value: string) {
    setEmail(value);
    if (!submitted) return;
    const verdict = await validate(value).catch(() => null);
    if (verdict) setError(verdict.ok ? undefined : verdict.message);
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const verdict = await validate(email).catch(() => null);
    if (!verdict) return setStatus("error");
    if (!verdict.ok) return setError(verdict.message);
    setError(undefined);
    setStatus("loading");
    try {
      const response = await fetch("/api/mailchimp/member", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(verdict.value),
      });
      setStatus(response.status === 200 ? "success" : "error");
    } catch {
      setStatus("error");
    }
    setEmail("");
    setSubmitted(false);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="w-full max-w-md" aria-label="Newsletter sign-up">
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
          name="email"
          value={email}
          onChange={(e) => void onChange(e.target.value)}
          onFocus={() => void preloadSchema().catch(() => {})}
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
