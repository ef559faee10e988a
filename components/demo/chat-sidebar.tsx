import { MessageSquare, Settings, SquarePen } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Kbd } from "@/components/ui/kbd";
import { presetConversations } from "@/lib/demo/script";
import { cn } from "@/lib/utils";
import type { DemoView, LastPayment } from "./use-demo-chat";
import { WalletCard } from "./wallet-balance";

export const sidebarId = "demo-chat-sidebar";

type Props = {
  /** undefined: open from the md breakpoint up, closed below it (the server cannot know the width). */
  open: boolean | undefined;
  selectedConversationId: string | null;
  view: DemoView;
  balance: number;
  lastPayment: LastPayment | null;
  modifier: string;
  onNewChat: () => void;
  onSelectConversation: (id: string) => void;
  onToggleSettings: () => void;
};

export function ChatSidebar({
  open,
  selectedConversationId,
  view,
  balance,
  lastPayment,
  modifier,
  onNewChat,
  onSelectConversation,
  onToggleSettings,
}: Props) {
  return (
    <nav
      id={sidebarId}
      aria-label="Conversations"
      className={cn(
        // Below md it slides over the messages under the chat header, so the toggle stays reachable.
        "absolute top-14 bottom-0 left-0 z-30 w-72 max-w-[85%] flex-col border-r bg-muted shadow-xl md:static md:w-64 md:max-w-none md:shrink-0 md:bg-muted/50 md:shadow-none",
        open === undefined
          ? "hidden md:flex"
          : open
            ? "flex animate-in slide-in-from-left-4 fade-in duration-200"
            : "hidden",
      )}
    >
      <div className="p-3">
        <Button
          variant="outline"
          className="w-full justify-start bg-background"
          onClick={onNewChat}
          aria-keyshortcuts="Control+N Meta+N"
        >
          <SquarePen aria-hidden="true" /> New Chat
        </Button>
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto px-3">
        <h2 className="px-2 pt-1 pb-2 text-[11px] font-semibold tracking-wider text-muted-foreground uppercase">
          Samples
        </h2>
        <ul className="space-y-1">
          {Object.entries(presetConversations).map(([id, conversation]) => {
            const selected = id === selectedConversationId;
            return (
              <li key={id}>
                <button
                  type="button"
                  onClick={() => onSelectConversation(id)}
                  aria-current={selected ? "true" : undefined}
                  className={cn(
                    "flex w-full items-start gap-2.5 rounded-lg px-2.5 py-2 text-left transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
                    selected ? "bg-background shadow-xs ring-1 ring-border" : "hover:bg-background/70",
                  )}
                >
                  <MessageSquare
                    className={cn("mt-0.5 size-4 shrink-0", selected ? "text-primary" : "text-muted-foreground")}
                    aria-hidden="true"
                  />
                  <span className="min-w-0">
                    <span className="block text-[11px] font-medium text-muted-foreground">{conversation.label}:</span>
                    <span className="block truncate text-sm font-medium text-foreground/90">{conversation.title}</span>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </div>

      <div className="space-y-3 border-t p-3">
        <WalletCard balance={balance} lastPayment={lastPayment} />
        <Button
          variant="ghost"
          className={cn("w-full justify-start", view === "settings" && "bg-background shadow-xs ring-1 ring-border")}
          onClick={onToggleSettings}
          aria-pressed={view === "settings"}
          aria-keyshortcuts="Control+Comma Meta+Comma"
        >
          <Settings aria-hidden="true" /> Settings
        </Button>
        <ShortcutHints modifier={modifier} />
      </div>
    </nav>
  );
}

function ShortcutHints({ modifier }: { modifier: string }) {
  const shortcuts = [
    { label: "New chat", key: "N" },
    { label: "Toggle settings", key: "," },
    { label: "Focus input", key: "K" },
  ];
  return (
    <section aria-label="Keyboard shortcuts" className="hidden px-1 md:block">
      <h2 className="sr-only">Keyboard shortcuts</h2>
      <dl className="space-y-1.5 text-xs text-muted-foreground">
        {shortcuts.map((s) => (
          <div key={s.key} className="flex items-center justify-between gap-2">
            <dt>{s.label}</dt>
            <dd className="flex gap-1">
              <Kbd>{modifier}</Kbd>
              <Kbd>{s.key}</Kbd>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
