// The event demo's whole script: commands, delays, replies, presets, wallet and settings.
// Edit this file to change the demo; the components only read it.
import { site } from "@/lib/site";
import { formatUsd, type ChatMessage } from "./chat";

const product = site.name;

export const wallet = {
  startingBalance: 5,
  address: "0x7a3F…9c21 (demo)",
  network: "Base Sepolia (testnet)",
  paymentMethod: site.paymentMethod,
} as const;

export const bobaPrice = 5;
const bobaPayee = "Boba Order Bot";

export const settings = {
  model: `${product} Demo Assistant (scripted)`,
  elicitationThreshold: 0.01,
  registry: `${product} registry · connected`,
} as const;

/** A few catalogue entries for the "list services" reply. */
const services = [
  { name: "Image Studio", price: "$0.25 per image" },
  { name: "AI-Powered Web Scraper", price: "$0.02 per page" },
  { name: "Token Price Oracle", price: "$0.01 per quote" },
  { name: "Deep Research Agent", price: "$1.50 per report" },
  { name: "Screenshot Service", price: "free" },
  { name: bobaPayee, price: `${formatUsd(bobaPrice)} per boba` },
] as const;

type CommandId = "what-is" | "list-services" | "order-boba";

type Command = {
  id: CommandId;
  /** What the visitor types, as shown in hints; matched case-insensitively after trimming. */
  text: string;
  delayMs: number;
};

export const commands: readonly Command[] = [
  { id: "what-is", text: `what is ${product}`, delayMs: 1000 },
  { id: "list-services", text: `list services on ${product}`, delayMs: 2000 },
  { id: "order-boba", text: "order boba", delayMs: 2000 },
];

const unknownCommandDelayMs = 1000;

export const unknownCommandReply = `The only commands I understand are "${commands[0].text}", "${commands[1].text}" and "${commands[2].text}"`;

const whatIsReply = [
  `${product} is a marketplace and registry for MonetizedMCP servers: MCP tool servers that charge per call.`,
  `With ${product} connected, I can search the registry for a tool, check its price and pay the server directly in USDC on Base from the wallet on your machine. No sign-up, no API keys and no middleman: the server verifies and settles each payment on-chain before it delivers.`,
  `Try "${commands[1].text}" to see what is available.`,
].join("\n\n");

const listServicesReply = [
  `Here are a few services on ${product} right now:`,
  services.map((s) => `- ${s.name} — ${s.price}`).join("\n"),
  `Say "${commands[2].text}" and I'll buy you one with your demo wallet.`,
].join("\n\n");

function bobaOrderedReply(balanceBefore: number): string {
  return [
    `Your boba is ordered! I found ${bobaPayee} on ${product}: a boba costs ${formatUsd(bobaPrice)}, so I paid it from your demo wallet in USDC on Base Sepolia. Your balance went from ${formatUsd(balanceBefore)} to ${formatUsd(balanceBefore - bobaPrice)}.`,
    `The first 50 people get a free boba: show this screen at the ${product} booth to collect yours.`,
  ].join("\n\n");
}

function bobaRefusedReply(balance: number): string {
  return `A boba costs ${formatUsd(bobaPrice)} and your demo wallet holds ${formatUsd(balance)}, so I can't place another order: I never spend more than the wallet balance. Reload the page to start again with ${formatUsd(wallet.startingBalance)}.`;
}

/** The command a visitor's message asks for, or null when the demo does not understand it. */
export function matchCommand(input: string): Command | null {
  const normalized = input.trim().toLowerCase();
  return commands.find((c) => c.text.toLowerCase() === normalized) ?? null;
}

type ScriptedReply = {
  content: string;
  delayMs: number;
  /** Taken from the demo wallet when the reply arrives. */
  payment?: { amount: number; payee: string };
};

/** What the assistant answers to `input`, after how long, and what it does to the wallet. */
export function replyTo(input: string, balance: number): ScriptedReply {
  const command = matchCommand(input);
  if (!command) return { content: unknownCommandReply, delayMs: unknownCommandDelayMs };
  switch (command.id) {
    case "what-is":
      return { content: whatIsReply, delayMs: command.delayMs };
    case "list-services":
      return { content: listServicesReply, delayMs: command.delayMs };
    case "order-boba":
      return balance >= bobaPrice
        ? {
            content: bobaOrderedReply(balance),
            delayMs: command.delayMs,
            payment: { amount: bobaPrice, payee: bobaPayee },
          }
        : { content: bobaRefusedReply(balance), delayMs: command.delayMs };
  }
}

type PresetConversation = {
  /** Shown above the title, e.g. "Conversation 1". */
  label: string;
  title: string;
  messages: readonly ChatMessage[];
};

/** Sample conversations in the sidebar, keyed by id. Sample content only: they never touch the wallet. */
export const presetConversations: Readonly<Record<string, PresetConversation>> = {
  "1": {
    label: "Conversation 1",
    title: "Finding an image generator",
    messages: [
      {
        id: "1-1",
        role: "user",
        timestamp: "10:02",
        content: "I need an image generator for a product launch banner. What can I use?",
      },
      {
        id: "1-2",
        role: "assistant",
        timestamp: "10:02",
        content: `I searched the ${product} registry and found Image Studio. It generates images from a text prompt in several styles and aspect ratios, for $0.25 per image, paid in USDC on Base.\n\nJobs run asynchronously: I submit the prompt, then check the job status after one to two minutes. Shall I go ahead?`,
      },
      { id: "1-3", role: "user", timestamp: "10:03", content: "Yes, a wide banner with a neon city skyline at night." },
      {
        id: "1-4",
        role: "assistant",
        timestamp: "10:03",
        content:
          "Done: I paid Image Studio $0.25 and submitted the job (16:9, neon style). The payment settled on-chain before the job started.\n\nI'll check the status in one to two minutes and show you the banner as soon as it is ready.",
      },
    ],
  },
  "2": {
    label: "Conversation 2",
    title: "Ordering boba",
    messages: [
      { id: "2-1", role: "user", timestamp: "14:30", content: commands[2].text },
      { id: "2-2", role: "assistant", timestamp: "14:30", content: bobaOrderedReply(wallet.startingBalance) },
      { id: "2-3", role: "user", timestamp: "14:31", content: "Wait, was that real money?" },
      {
        id: "2-4",
        role: "assistant",
        timestamp: "14:31",
        content: `No, this is a demo wallet. On ${product}, real payments settle in USDC on Base; during the developer preview that is the Base Sepolia testnet, so you can try everything with test funds.`,
      },
    ],
  },
};
