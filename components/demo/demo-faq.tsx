import Link from "next/link";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";
import { formatUsd } from "@/lib/demo/chat";
import { bobaPrice, wallet } from "@/lib/demo/script";
import { site } from "@/lib/site";
import { cn } from "@/lib/utils";
import { CommandList } from "./command-list";

const linkClass = "font-medium text-primary underline underline-offset-4 hover:text-primary/80";

export function DemoFaq({ className }: { className?: string }) {
  return (
    <Accordion type="single" collapsible className={cn("rounded-xl border bg-background px-5 shadow-xs", className)}>
      <AccordionItem value="what">
        <AccordionTrigger className="text-base">What is this demo?</AccordionTrigger>
        <AccordionContent className="leading-relaxed text-muted-foreground">
          A simulated desktop chat client, like the AI assistant apps you already use, with {site.name} connected. It
          runs entirely in your browser and answers three scripted commands:{" "}
          <CommandList
            conjunction="and"
            render={(text) => (
              <code className="rounded bg-muted px-1.5 py-0.5 text-[0.85em] text-foreground">{text}</code>
            )}
          />
          . No model is called and nothing you type leaves the page.
        </AccordionContent>
      </AccordionItem>
      <AccordionItem value="money">
        <AccordionTrigger className="text-base">Is the money real?</AccordionTrigger>
        <AccordionContent className="leading-relaxed text-muted-foreground">
          No. The wallet, its {formatUsd(wallet.startingBalance)} balance and the {formatUsd(bobaPrice)} boba payment
          are simulated, and reloading the page starts over. On {site.name} itself agents pay servers directly in USDC
          on Base; during the developer preview that is the Base Sepolia testnet, so you can try everything with test
          funds. The first 50 people at the event get a free boba.
        </AccordionContent>
      </AccordionItem>
      <AccordionItem value="real">
        <AccordionTrigger className="text-base">How do I try it for real?</AccordionTrigger>
        <AccordionContent className="leading-relaxed text-muted-foreground">
          Follow{" "}
          <Link href="/getting-started" className={linkClass}>
            Getting Started
          </Link>{" "}
          to add the {site.name} registry to your desktop AI assistant, fund its wallet with testnet USDC and make your
          first paid tool call. Building a paid tool server? Browse the{" "}
          <Link href="/marketplace" className={linkClass}>
            marketplace
          </Link>{" "}
          and{" "}
          <Link href="/submit" className={linkClass}>
            submit your server
          </Link>
          .
        </AccordionContent>
      </AccordionItem>
    </Accordion>
  );
}
