import { useLayoutEffect, type KeyboardEvent, type Ref, type RefObject } from "react";
import { ArrowUp } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { commands } from "@/lib/demo/script";
import { site } from "@/lib/site";

/** Tallest the input grows before it scrolls. */
const composerMaxHeight = 120;

type Props = {
  inputRef: RefObject<HTMLTextAreaElement | null>;
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  pending: boolean;
};

export function ChatComposer({ inputRef, value, onChange, onSend, pending }: Props) {
  const canSend = value.trim() !== "" && !pending;

  // Grow with the content up to the cap, then scroll (field-sizing is not in every browser yet).
  useLayoutEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, composerMaxHeight)}px`;
  }, [inputRef, value]);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) onSend();
  }

  return (
    <form
      className="shrink-0 px-3 pt-2 pb-3 sm:px-6 sm:pb-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSend) onSend();
      }}
    >
      <div className="mx-auto max-w-3xl">
        <div className="flex items-end gap-2 rounded-2xl border bg-white py-2 pr-2 pl-4 shadow-sm transition-[border-color,box-shadow] focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/40">
          <label htmlFor="demo-chat-input" className="sr-only">
            Message {site.name}
          </label>
          <Textarea
            id="demo-chat-input"
            ref={inputRef as Ref<HTMLTextAreaElement>}
            rows={1}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder={`Message ${site.name}… try “${commands[2].text}”`}
            aria-keyshortcuts="Control+K Meta+K"
            enterKeyHint="send"
            autoComplete="off"
            className="field-sizing-fixed max-h-[120px] min-h-0 resize-none overflow-y-auto rounded-none border-0 bg-transparent px-0 py-1.5 leading-6 shadow-none focus-visible:ring-0"
          />
          <Button
            type="submit"
            size="icon"
            aria-label="Send message"
            disabled={!canSend}
            className="size-9 shrink-0 rounded-xl"
          >
            <ArrowUp className="size-4.5" />
          </Button>
        </div>
        <p className="mt-2 hidden text-center text-[11px] text-muted-foreground sm:block">
          Enter to send · Shift + Enter for a new line · A scripted demo: no real money moves
        </p>
      </div>
    </form>
  );
}
