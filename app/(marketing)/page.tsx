import type { Metadata } from "next";
import Link from "next/link";
import { ArrowRight, BookOpen, Workflow } from "lucide-react";
import { Button } from "@/components/ui/button";
import { NewsletterForm } from "@/components/newsletter/newsletter-form";
import WhatIs from "@/content/marketing/what-is.mdx";
import { site } from "@/lib/site";

export const metadata: Metadata = {
  title: { absolute: `${site.name} — ${site.headline}` },
  description: site.description,
  alternates: { canonical: "/" },
  openGraph: { title: `${site.name} — ${site.headline}`, description: site.description, url: "/" },
};

const cards = [
  {
    href: "/how-it-works",
    title: "How It Works",
    text: "The peer-to-peer flow: search the registry, pay servers directly, get the service once payment settles.",
    icon: Workflow,
  },
  {
    href: "/getting-started",
    title: "Getting Started",
    text: "Add the registry to your desktop AI assistant in four steps and make your first paid tool call.",
    icon: BookOpen,
  },
];

export default function HomePage() {
  return (
    <>
      <section className="relative -mt-16 overflow-hidden bg-gradient-to-b from-indigo-50 via-white to-white pt-16">
        <div className="mx-auto max-w-6xl px-4 py-20 text-center sm:px-6 sm:py-28">
          <p className="mx-auto mb-6 w-fit rounded-full border border-primary/20 bg-white px-3 py-1 text-xs font-medium text-primary shadow-xs">
            Developer preview · USDC on Base Sepolia
          </p>
          <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-6xl">
            {site.headline}
          </h1>
          {/* The tagline as the spec words it, on a line of its own; the newsletter card below no longer repeats it. */}
          <p className="mx-auto mt-6 max-w-2xl text-xl font-medium text-pretty text-foreground">{site.tagline}</p>
          <p className="mx-auto mt-2 max-w-2xl text-lg text-pretty text-muted-foreground">
            Agents find paid tools in one registry and pay them directly — no sign-up, no API keys, no middleman.
          </p>
          <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <Button asChild size="lg">
              <Link href="/marketplace">
                Browse the marketplace <ArrowRight />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link href="/submit">Submit your server</Link>
            </Button>
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
        <div className="prose-page">
          <WhatIs />
        </div>
      </section>

      <section className="mx-auto grid max-w-6xl gap-6 px-4 py-12 sm:px-6 md:grid-cols-2">
        {cards.map(({ href, title, text, icon: Icon }) => (
          <Link
            key={href}
            href={href}
            className="group rounded-xl border bg-card p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md"
          >
            <Icon className="size-8 text-primary" aria-hidden="true" />
            <h2 className="mt-4 text-xl font-semibold">{title}</h2>
            <p className="mt-2 text-muted-foreground">{text}</p>
            <span className="mt-4 inline-flex items-center gap-1 text-sm font-medium text-primary">
              Read more <ArrowRight className="size-4 transition group-hover:translate-x-0.5" />
            </span>
          </Link>
        ))}
      </section>

      <section className="mx-auto max-w-6xl px-4 pb-20 sm:px-6">
        <div className="flex flex-col items-center gap-4 rounded-2xl border bg-muted/40 px-6 py-12 text-center">
          <h2 className="text-2xl font-semibold tracking-tight">Stay in the loop</h2>
          <p className="max-w-lg text-muted-foreground">
            New servers, protocol updates and the move to mainnet — one short email when something ships.
          </p>
          <NewsletterForm />
        </div>
      </section>
    </>
  );
}
