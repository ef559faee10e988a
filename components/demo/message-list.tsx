import { useEffect, useRef } from "react";
import { Sparkles } from "lucide-react";
import { Logo } from "@/components/layout/logo";
import type { ChatMessage } from "@/lib/demo/chat";
import { commands } from "@/lib/demo/script";
import { site } from "@/lib/site";
import { cn } from "@/lib/utils";
import { MessageContent } from "./message-content";

type Props = {
  messages: readonly ChatMessage[];
  pending: boolean;
  onSuggestion: (text: string) => void;
};

/** The scrolling conversation: always mounted so screen readers announce each new message. */
export function MessageList({ messages, pending, onSuggestion }: Props) {
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages, pending]);

  const empty = messages.length === 0 && !pending;
  return (
    <div
      ref={scroller}
      role="log"
      aria-live="polite"
      aria-label="Messages"
      data-testid="message-list"
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain"
    >
      {empty ? (
        <EmptyState onSuggestion={onSuggestion} />
      ) : (
        <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-6 sm:px-6">
          {messages.map((message) => (
            <MessageBubble key={message.id} message={message} />
          ))}
          {pending && <TypingIndicator />}
        </div>
      )}
    </div>
  );
}

function AssistantAvatar() {
  return (
    <div className="mt-0.5 shrink-0 self-start rounded-lg shadow-sm ring-1 ring-black/5">
      <Logo className="size-7" />
    </div>
  );
}

function MessageBubble({ message }: { message: ChatMessage }) {
  if (message.role === "user") {
    return (
      <article data-testid="message" data-role="user" aria-label="You" className="flex flex-col items-end gap-1">
        <div className="max-w-[85%] rounded-2xl rounded-br-md bg-primary px-4 py-2.5 text-[15px] leading-relaxed break-words whitespace-pre-wrap text-primary-foreground shadow-sm">
          {message.content}
        </div>
        <time className="pr-1 text-[11px] text-muted-foreground tabular-nums">{message.timestamp}</time>
      </article>
    );
  }
  return (
    <article data-testid="message" data-role="assistant" aria-label={site.name} className="flex gap-3">
      <AssistantAvatar />
      <div className="min-w-0 flex-1">
        <div className="mb-1 flex items-baseline gap-2">
          <span className="text-sm font-semibold">{site.name}</span>
          <time className="text-[11px] text-muted-foreground tabular-nums">{message.timestamp}</time>
        </div>
        <div className="text-[15px] leading-relaxed break-words text-foreground/90">
          <MessageContent content={message.content} />
        </div>
      </div>
    </article>
  );
}

function TypingIndicator() {
  return (
    <div data-testid="typing-indicator" className="flex items-center gap-3">
      <AssistantAvatar />
      <div className="flex items-center gap-1 rounded-2xl bg-muted px-4 py-3" aria-hidden="true">
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="size-1.5 animate-bounce rounded-full bg-muted-foreground/70"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </div>
      <span className="sr-only">{site.name} is typing…</span>
    </div>
  );
}

function EmptyState({ onSuggestion }: { onSuggestion: (text: string) => void }) {
  return (
    <div className="flex min-h-full flex-col items-center justify-center px-4 py-10 text-center">
      <div className="rounded-2xl shadow-lg ring-1 shadow-primary/20 ring-black/5">
        <Logo className="size-12" />
      </div>
      <h2 className="mt-5 text-xl font-semibold tracking-tight sm:text-2xl">How can I help you today?</h2>
      <p className="mt-2 max-w-sm text-sm text-muted-foreground">
        I&apos;m a scripted demo assistant with {site.name} connected. Try one of these:
      </p>
      <div className="mt-6 flex max-w-md flex-wrap justify-center gap-2">
        {commands.map((command) => (
          <button
            key={command.id}
            type="button"
            onClick={() => onSuggestion(command.text)}
            className={cn(
              "inline-flex items-center gap-1.5 rounded-full border bg-background px-3.5 py-1.5 text-sm text-foreground/80 shadow-xs transition",
              "outline-none hover:border-primary/40 hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50",
            )}
          >
            <Sparkles className="size-3.5 text-primary" aria-hidden="true" />
            {command.text}
          </button>
        ))}
      </div>
    </div>
  );
}
