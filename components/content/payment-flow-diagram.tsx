import { ArrowDown, ArrowLeft, ArrowRight, ArrowUp, Bot, Search, Server, type LucideIcon } from "lucide-react";
import { cn } from "@/lib/utils";

function Party({
  icon: Icon,
  title,
  text,
  accent,
}: {
  icon: LucideIcon;
  title: string;
  text: string;
  accent?: boolean;
}) {
  return (
    <div
      className={cn(
        "flex items-center gap-3 rounded-lg border bg-white p-3 shadow-xs md:flex-col md:gap-0 md:px-4 md:py-4 md:text-center",
        accent && "border-primary/40 ring-2 ring-primary/10",
      )}
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <span className="flex flex-col md:items-center">
        <span className="leading-snug font-semibold text-foreground md:mt-2">{title}</span>
        <span className="mt-0.5 text-sm leading-snug text-muted-foreground md:mt-1">{text}</span>
      </span>
    </div>
  );
}

// Arrows point up/down while the parties stack on a phone, and left/right once they sit in one row.
function Hop({ label, toward }: { label: string; toward: "registry" | "server" }) {
  const [Narrow, Wide] = toward === "registry" ? [ArrowUp, ArrowLeft] : [ArrowDown, ArrowRight];
  return (
    <div className="flex flex-col items-center justify-center gap-1 px-1 py-1 text-center text-xs font-medium text-primary md:max-w-32 md:self-center">
      <Narrow className="size-5 md:hidden" aria-hidden="true" />
      <Wide className="hidden size-5 md:block" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** The three parties of a purchase, with the agent in the middle: discovery goes one way, money the other. */
export function PaymentFlowDiagram() {
  return (
    <figure
      className="my-8 rounded-xl border bg-gradient-to-b from-indigo-50/70 to-white p-4 sm:p-6"
      data-testid="payment-flow-diagram"
    >
      <div className="grid gap-2 md:grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)_auto_minmax(0,1fr)] md:items-stretch md:gap-3">
        <Party icon={Search} title="Agora registry" text="Lists approved servers. Never sees or holds a payment." />
        <Hop toward="registry" label="search" />
        <Party icon={Bot} title="Your agent" text="Runs on your machine with its own local USDC wallet." accent />
        <Hop toward="server" label="pay per call in USDC over x402" />
        <Party
          icon={Server}
          title="MonetizedMCP server"
          text="Verifies and settles the payment on Base, then delivers."
        />
      </div>
      <figcaption className="mt-4 text-center text-sm text-muted-foreground">
        Agora sits beside the payment path, never in it: USDC moves straight from your wallet to the server&apos;s
        wallet.
      </figcaption>
    </figure>
  );
}
