"use client";
// The simulated desktop chat client of the event demo: window chrome, sidebar, conversation and shortcuts.
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { PanelLeft } from "lucide-react";
import { Button } from "@/components/ui/button";
import { presetConversations } from "@/lib/demo/script";
import { site } from "@/lib/site-copy";
import { cn } from "@/lib/utils";
import { ChatComposer } from "./chat-composer";
import { ChatSidebar, sidebarId } from "./chat-sidebar";
import { MessageList } from "./message-list";
import { SettingsPanel } from "./settings-panel";
import { useDemoChat } from "./use-demo-chat";
import { useHydrated } from "@/components/hooks/use-hydrated";
import { useIsWide, useModifierLabel } from "./use-media";
import { BalanceBadge } from "./wallet-balance";

export function DemoChat({ className }: { className?: string }) {
  const chat = useDemoChat();
  const [draft, setDraft] = useState("");
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const isWide = useIsWide();
  const modifier = useModifierLabel();
  const hydrated = useHydrated();
  // undefined until the visitor toggles: the breakpoint decides, so the server render matches.
  const [sidebarChoice, setSidebarChoice] = useState<boolean | undefined>(undefined);
  const sidebarOpen = sidebarChoice ?? isWide;
  const sidebarOverlays = sidebarOpen && !isWide;

  // Crossing the breakpoint returns to that width's default layout (set while rendering, not in an effect that
  // would paint the old choice at the new width first).
  const [choiceWidth, setChoiceWidth] = useState(isWide);
  if (choiceWidth !== isWide) {
    setChoiceWidth(isWide);
    setSidebarChoice(undefined);
  }

  function focusInput() {
    inputRef.current?.focus();
  }

  function afterSidebarAction() {
    if (isWide) focusInput();
    else setSidebarChoice(false);
  }

  function newChat() {
    flushSync(() => {
      chat.newChat();
      setDraft("");
    });
    afterSidebarAction();
  }

  function selectConversation(id: string) {
    flushSync(() => chat.selectConversation(id));
    afterSidebarAction();
  }

  function send(text: string) {
    if (chat.send(text)) setDraft("");
  }

  const onWindowKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (event.key === "Escape" && sidebarOverlays) {
      setSidebarChoice(false);
      return;
    }
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const key = event.key.toLowerCase();
    if (key === "n") {
      event.preventDefault();
      newChat();
    } else if (key === ",") {
      event.preventDefault();
      chat.toggleSettings();
    } else if (key === "k") {
      event.preventDefault();
      flushSync(() => chat.setView("chat"));
      focusInput();
    }
  });

  useEffect(() => {
    const listener = (event: KeyboardEvent) => onWindowKeyDown(event);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  const title =
    chat.view === "settings"
      ? "Settings"
      : chat.selectedConversationId
        ? (presetConversations[chat.selectedConversationId]?.title ?? "New chat")
        : "New chat";

  return (
    <section
      aria-label={`${site.name} Desktop (simulated)`}
      aria-busy={!hydrated}
      className={cn(
        "overflow-hidden rounded-2xl border bg-background shadow-2xl ring-1 shadow-primary/10 ring-black/5",
        className,
      )}
    >
      <div className="flex h-9 items-center border-b bg-muted/70 px-3.5" aria-hidden="true">
        <div className="flex gap-1.5">
          <span className="size-3 rounded-full bg-[#ff5f57]" />
          <span className="size-3 rounded-full bg-[#febc2e]" />
          <span className="size-3 rounded-full bg-[#28c840]" />
        </div>
        <p className="flex-1 text-center text-xs font-medium text-muted-foreground">{site.name} Desktop</p>
        <div className="w-[46px]" />
      </div>

      <div className="relative flex h-[clamp(520px,calc(100dvh-8rem),760px)]">
        <ChatSidebar
          open={sidebarChoice}
          selectedConversationId={chat.selectedConversationId}
          view={chat.view}
          balance={chat.balance}
          lastPayment={chat.lastPayment}
          modifier={modifier}
          onNewChat={newChat}
          onSelectConversation={selectConversation}
          onToggleSettings={() => {
            chat.toggleSettings();
            if (!isWide) setSidebarChoice(false);
          }}
        />
        {sidebarOverlays && (
          <div
            className="absolute inset-x-0 top-14 bottom-0 z-20 bg-foreground/20 md:hidden"
            aria-hidden="true"
            onClick={() => setSidebarChoice(false)}
          />
        )}

        <div className="flex min-w-0 flex-1 flex-col">
          <header className="flex h-14 shrink-0 items-center gap-2 border-b px-2 sm:px-3">
            <Button
              variant="ghost"
              size="icon"
              aria-label={sidebarOpen ? "Close sidebar" : "Open sidebar"}
              aria-expanded={sidebarOpen}
              aria-controls={sidebarId}
              onClick={() => setSidebarChoice(!sidebarOpen)}
            >
              <PanelLeft className="size-4.5" />
            </Button>
            <h2 className="min-w-0 flex-1 truncate text-sm font-semibold" data-testid="chat-title">
              {title}
            </h2>
            <BalanceBadge balance={chat.balance} />
          </header>

          <div hidden={chat.view !== "chat"} className="flex min-h-0 flex-1 flex-col">
            <MessageList messages={chat.messages} pending={chat.pending} onSuggestion={send} />
            <ChatComposer
              inputRef={inputRef}
              value={draft}
              onChange={setDraft}
              onSend={() => send(draft)}
              pending={chat.pending}
            />
          </div>
          {chat.view === "settings" && <SettingsPanel balance={chat.balance} onClose={() => chat.setView("chat")} />}
        </div>
      </div>
    </section>
  );
}
