// State of the simulated chat client: conversation, pending reply, wallet and view.
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { formatTimestamp, formatUsd, type ChatMessage, type ChatRole } from "@/lib/demo/chat";
import { presetConversations, replyTo, wallet } from "@/lib/demo/script";

export type DemoView = "chat" | "settings";
export type LastPayment = { amount: number; payee: string; timestamp: string };

export function useDemoChat() {
  const [messages, setMessages] = useState<readonly ChatMessage[]>([]);
  const [selectedConversationId, setSelectedConversationId] = useState<string | null>(null);
  const [view, setView] = useState<DemoView>("chat");
  const [pending, setPending] = useState(false);
  const [balance, setBalance] = useState<number>(wallet.startingBalance);
  const [lastPayment, setLastPayment] = useState<LastPayment | null>(null);
  const replyTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const messageCount = useRef(0);

  const createMessage = useCallback((role: ChatRole, content: string): ChatMessage => {
    messageCount.current += 1;
    return { id: `m${messageCount.current}`, role, content, timestamp: formatTimestamp(new Date()) };
  }, []);

  // A reply belongs to the conversation it answers: leaving that conversation drops it.
  const cancelReply = useCallback(() => {
    clearTimeout(replyTimer.current);
    replyTimer.current = undefined;
    setPending(false);
  }, []);

  useEffect(() => () => clearTimeout(replyTimer.current), []);

  const newChat = useCallback(() => {
    cancelReply();
    setMessages([]);
    setSelectedConversationId(null);
    setView("chat");
  }, [cancelReply]);

  const selectConversation = useCallback(
    (id: string) => {
      const preset = presetConversations[id];
      if (!preset) return;
      cancelReply();
      setMessages(preset.messages);
      setSelectedConversationId(id);
      setView("chat");
    },
    [cancelReply],
  );

  /** Sends `text` and schedules the scripted reply; false when there is nothing to send or a reply is pending. */
  const send = useCallback(
    (text: string): boolean => {
      const content = text.trim();
      if (!content || pending) return false;
      const reply = replyTo(content, balance);
      setMessages((current) => [...current, createMessage("user", content)]);
      setPending(true);
      replyTimer.current = setTimeout(() => {
        replyTimer.current = undefined;
        setMessages((current) => [...current, createMessage("assistant", reply.content)]);
        setPending(false);
        if (reply.payment) {
          const { amount, payee } = reply.payment;
          setBalance((b) => b - amount);
          setLastPayment({ amount, payee, timestamp: formatTimestamp(new Date()) });
          toast.success(`Paid ${formatUsd(amount)} USDC to ${payee}`, {
            description: "Demo wallet · Base Sepolia",
            position: "top-center",
          });
        }
      }, reply.delayMs);
      return true;
    },
    [balance, createMessage, pending],
  );

  const toggleSettings = useCallback(() => setView((v) => (v === "settings" ? "chat" : "settings")), []);

  return {
    messages,
    selectedConversationId,
    view,
    setView,
    pending,
    balance,
    lastPayment,
    newChat,
    selectConversation,
    send,
    toggleSettings,
  };
}
