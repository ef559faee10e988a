import type { Metadata } from "next";
import { Mail } from "lucide-react";
import { CommandList } from "@/components/demo/command-list";
import { DemoChat } from "@/components/demo/demo-chat";
import { DemoFaq } from "@/components/demo/demo-faq";
import { formatUsd } from "@/lib/demo/chat";
import { wallet } from "@/lib/demo/script";
import { contactEmail } from "@/lib/deployment";
import { site } from "@/lib/site";

const description = `Try ${site.name} in a simulated desktop chat client: ask what ${site.name} is, list paid MCP services and order a boba with a demo wallet.`;

export const metadata: Metadata = {
  title: "Event demo",
  description,
  alternates: { canonical: "/mcpsummit" },
  openGraph: { title: `${site.name} Desktop demo`, description, url: "/mcpsummit" },
};

export default function DemoPage() {
  return (
    <div className="bg-gradient-to-b from-indigo-50/70 via-white to-white">
      <div className="mx-auto max-w-6xl px-4 pt-8 pb-16 sm:px-6 sm:pt-12">
        <header className="mx-auto max-w-3xl text-center">
          <p className="mx-auto w-fit rounded-full border border-primary/20 bg-white px-3 py-1 text-xs font-medium text-primary shadow-xs">
            MCP Summit · Event demo
          </p>
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-balance sm:text-4xl">{site.name} Desktop demo</h1>
          <p className="mx-auto mt-3 max-w-2xl text-pretty text-muted-foreground">
            A desktop AI assistant with {site.name} connected and a {formatUsd(wallet.startingBalance)} demo wallet. Ask
            it{" "}
            <CommandList
              conjunction="or"
              render={(text) => <span className="font-medium text-foreground">“{text}”</span>}
            />
            . Nothing here moves real money.
          </p>
        </header>

        <DemoChat className="mt-8 sm:mt-10" />

        <section aria-labelledby="demo-faq-heading" className="mx-auto mt-16 max-w-3xl">
          <h2 id="demo-faq-heading" className="text-2xl font-semibold tracking-tight">
            Questions
          </h2>
          <p className="mt-2 text-muted-foreground">About the demo, the money and what comes next.</p>
          <DemoFaq className="mt-6" />
          <div
            id="contact"
            className="mt-8 flex flex-col gap-3 rounded-xl border bg-muted/40 p-5 sm:flex-row sm:items-center sm:justify-between"
          >
            <div>
              <h3 className="font-semibold">Get in touch</h3>
              <p className="mt-1 text-sm text-muted-foreground">
                Questions, feedback or a server you want to list? We read every email.
              </p>
            </div>
            <a
              href={`mailto:${contactEmail()}`}
              className="inline-flex shrink-0 items-center gap-2 rounded-md text-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              <Mail className="size-4" aria-hidden="true" /> {contactEmail()}
            </a>
          </div>
        </section>
      </div>
    </div>
  );
}
