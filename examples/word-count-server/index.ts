import { createMonetizedServer } from "@agora-mcp/server";

const server = createMonetizedServer({
  name: "word-count",
  walletAddress: process.env.SERVER_WALLET_ADDRESS ?? "",
  network: process.env.NETWORK, // base-sepolia unless you name base
  facilitatorUrl: process.env.FACILITATOR_URL, // https://x402.org/facilitator unless set
  items: [
    {
      id: "word-count",
      name: "Word count",
      description: "Counts the words in a text of up to 10,000 characters.",
      price: "0.01",
      params: { text: "The text to count, e.g. 'Hello, agents'" },
      handler: ({ text }) => ({ words: text.split(/\s+/).filter(Boolean).length }),
    },
    {
      id: "character-count",
      name: "Character count",
      description: "Counts the characters in a text. Free.",
      price: 0,
      params: { text: "The text to count" },
      handler: ({ text }) => ({ characters: [...text].length }),
    },
  ],
});

const port = Number(process.env.PORT ?? 8080);
const { url } = await server.listen({ port, host: process.env.HOST ?? "127.0.0.1" });
console.log(`Selling word counts at ${url}`);
