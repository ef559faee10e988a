// Hand-written sample MonetizedMCP listings for first runs, demos and tests.
// `ageDays` places createdAt in the past; under 30 days earns the 'New' badge. None claims 'Verified':
// `reference` listings point at a reference server on loopback and earn the badge from a real probe
// when one answers there (./probes.ts); the rest stay unverified. Every made-up host is under `.example`, a name
// reserved never to exist (RFC 2606): probing one asks nothing of the network (lib/ssrf/resolve.ts answers it
// locally), so a first run contacts no host outside the machine.
import type { ListingRow } from "@/db/schema";

/** A listing's own text and price, and where its made-up server lives (`host`) and how old it is. */
export type SampleListing = Pick<ListingRow, "name" | "description" | "categories" | "price"> & {
  host: string;
  reference?: true;
  website?: string;
  ageDays: number;
};

export const sampleCatalogue: SampleListing[] = [
  {
    name: "AI-Powered Web Scraper",
    description:
      "Turns any public web page into clean Markdown or structured JSON. Handles JavaScript-rendered pages, pagination and polite rate limiting, and returns the extracted fields you describe in plain English.",
    categories: ["AI", "Data", "Search"],
    price: 0.02,
    host: "scraper.mcpdemo.example",
    website: "https://scraper.mcpdemo.example",
    ageDays: 12,
  },
  {
    name: "Screenshot Service",
    description:
      "Captures full-page or viewport screenshots of any URL at desktop or mobile sizes. Free to use: the provider covers the rendering cost to showcase MonetizedMCP.",
    categories: ["Images", "Dev Tools"],
    price: null,
    host: "screenshots.mcpdemo.example",
    website: "https://screenshots.mcpdemo.example",
    ageDays: 95,
  },
  {
    name: "Image Studio",
    description:
      "Generates images from a text prompt with a choice of styles and aspect ratios. Jobs run asynchronously: submit a prompt, then check the job status after one to two minutes to fetch the finished image.",
    categories: ["AI", "Images"],
    price: 0.25,
    host: "image-studio.mcpdemo.example",
    website: "https://image-studio.mcpdemo.example",
    ageDays: 40,
  },
  {
    name: "Token Price Oracle",
    description:
      "Spot prices, 24-hour volume and market capitalisation for thousands of crypto assets, aggregated from several exchanges and refreshed every few seconds.",
    categories: ["Web3", "Finance", "Data"],
    price: 0.01,
    host: "oracle.chainfeeds.example",
    website: "https://chainfeeds.example",
    ageDays: 120,
  },
  {
    name: "Wallet Risk Scanner",
    description:
      "Scores an EVM wallet address for exposure to sanctioned entities, mixers and known exploit contracts, with a short explanation of every flag it raises.",
    categories: ["Web3", "Security"],
    price: 0.15,
    host: "risk.walletguard.example",
    website: "https://walletguard.example",
    ageDays: 8,
  },
  {
    name: "SEC Filings Explorer",
    description:
      "Searches and summarises 10-K, 10-Q and 8-K filings. Ask for revenue by segment, risk-factor changes between years, or insider transactions for a ticker.",
    categories: ["Finance", "Data", "Search"],
    price: 0.05,
    host: "filings.ledgerlens.example",
    website: "https://ledgerlens.example",
    ageDays: 63,
  },
  {
    name: "Company Enrichment",
    description:
      "Given a domain or company name, returns headcount range, industry, funding rounds, tech stack and social profiles, with the source of each field.",
    categories: ["Data", "Sales"],
    price: 0.04,
    host: "enrich.firmographics.example",
    ageDays: 150,
  },
  {
    name: "Semantic Web Search",
    description:
      "Neural web search that returns ranked passages rather than links, with citations and publication dates, tuned for agents that need to answer questions quickly.",
    categories: ["Search", "AI"],
    price: 0.01,
    host: "search.deepquery.example",
    website: "https://deepquery.example",
    ageDays: 22,
    reference: true,
  },
  {
    name: "News Pulse",
    description:
      "Headlines and full-text articles from thousands of news sources, filterable by topic, region and language, with sentiment and named entities attached.",
    categories: ["Search", "Data"],
    price: 0.02,
    host: "news.pulsewire.example",
    website: "https://pulsewire.example",
    ageDays: 75,
  },
  {
    name: "Code Review Assistant",
    description:
      "Reviews a pull request diff for bugs, security issues and style problems, and answers with line-anchored comments and suggested patches.",
    categories: ["Dev Tools", "AI"],
    price: 0.35,
    host: "review.patchpilot.example",
    website: "https://patchpilot.example",
    ageDays: 5,
  },
  {
    name: "Dependency Auditor",
    description:
      "Checks an npm, PyPI or Cargo lockfile against vulnerability databases and licence rules, and proposes the smallest upgrade that fixes each finding.",
    categories: ["Dev Tools", "Security"],
    price: 0.1,
    host: "audit.lockcheck.example",
    ageDays: 33,
  },
  {
    name: "Weather Now",
    description:
      "Current conditions, hourly and ten-day forecasts, and severe-weather alerts for any coordinates on Earth. Simple, fast and cheap per call.",
    categories: ["Data"],
    price: 0.01,
    host: "weather.skyapi.example",
    website: "https://skyapi.example",
    ageDays: 200,
    reference: true,
  },
  {
    name: "Flight Finder",
    description:
      "Searches fares across airlines for a route and date range, returning the cheapest and fastest options with baggage rules and layover details.",
    categories: ["Travel", "Search"],
    price: 0.08,
    host: "flights.tripwise.example",
    website: "https://tripwise.example",
    ageDays: 18,
  },
  {
    name: "Document OCR",
    description:
      "Extracts text, tables and key-value pairs from scanned PDFs and photos of receipts, invoices and IDs, preserving reading order and layout.",
    categories: ["AI", "Data"],
    price: 0.12,
    host: "ocr.paperless.example",
    website: "https://paperless.example",
    ageDays: 47,
  },
  {
    name: "Translation Pro",
    description:
      "Context-aware translation between 90 languages with glossary support and formality control. Keeps Markdown and HTML formatting intact.",
    categories: ["AI", "Language"],
    price: 0.02,
    host: "translate.polyglot.example",
    ageDays: 88,
  },
  {
    name: "On-Chain Analytics",
    description:
      "Query decoded transactions, token transfers and contract events on Base and Ethereum with SQL-like filters; answers come back as tables ready for charts.",
    categories: ["Web3", "Data"],
    price: 0.2,
    host: "analytics.basescan.example",
    website: "https://basescan.example",
    ageDays: 3,
  },
  {
    name: "NFT Metadata Resolver",
    description:
      "Resolves token metadata and media for any ERC-721 or ERC-1155 token, with IPFS gateway fallbacks and cached thumbnails.",
    categories: ["Web3", "Images"],
    price: 0.01,
    host: "nft.metaresolve.example",
    ageDays: 130,
  },
  {
    name: "Stock Market Data",
    description:
      "Real-time and historical quotes, OHLC bars, dividends and splits for US equities and ETFs, plus company fundamentals from the latest filings.",
    categories: ["Finance", "Data"],
    price: 0.03,
    host: "markets.tickerfeed.example",
    website: "https://tickerfeed.example",
    ageDays: 54,
  },
  {
    name: "Invoice Generator",
    description:
      "Creates a tax-compliant PDF invoice from line items and party details, numbers it, and returns a hosted link your customer can pay from.",
    categories: ["Finance", "Productivity"],
    price: 0.1,
    host: "invoices.billkit.example",
    ageDays: 26,
  },
  {
    name: "Legal Clause Checker",
    description:
      "Reviews a contract and flags unusual or one-sided clauses — indemnities, auto-renewals, liability caps — with a plain-language explanation of each.",
    categories: ["AI", "Legal"],
    price: 0.75,
    host: "clauses.lexagent.example",
    website: "https://lexagent.example",
    ageDays: 70,
  },
  {
    name: "Deep Research Agent",
    description:
      "Runs a multi-step research task across the web and academic sources, then writes a cited report. Premium tier for long, thorough investigations.",
    categories: ["AI", "Search"],
    price: 1.5,
    host: "research.scholarly.example",
    website: "https://scholarly.example",
    ageDays: 14,
  },
  {
    name: "Email Validator",
    description:
      "Checks syntax, domain records and mailbox existence for an address, and flags disposable and role-based addresses before you send.",
    categories: ["Data", "Sales"],
    price: 0.01,
    host: "verify.mailcheck.example",
    ageDays: 180,
  },
  {
    name: "Geocoder",
    description:
      "Forward and reverse geocoding with rooftop accuracy in most countries, plus time zone and administrative area for every result.",
    categories: ["Data", "Maps"],
    price: null,
    host: "geo.placefinder.example",
    website: "https://placefinder.example",
    ageDays: 240,
  },
  {
    name: "Route Planner",
    description:
      "Plans driving, cycling and walking routes with traffic-aware travel times and multi-stop optimisation for deliveries.",
    categories: ["Maps", "Travel"],
    price: 0.05,
    host: "routes.placefinder.example",
    ageDays: 29,
  },
  {
    name: "Text to Speech",
    description:
      "Natural-sounding speech in 40 voices and 25 languages, returned as MP3 or WAV, with SSML support for pauses and emphasis.",
    categories: ["AI", "Audio"],
    price: 0.04,
    host: "tts.voicebox.example",
    website: "https://voicebox.example",
    ageDays: 100,
  },
  {
    name: "Audio Transcriber",
    description:
      "Transcribes meetings, podcasts and calls with speaker labels and word-level timestamps; long files are processed as background jobs.",
    categories: ["AI", "Audio"],
    price: 0.18,
    host: "transcribe.voicebox.example",
    ageDays: 6,
  },
  {
    name: "Sentiment Analyzer",
    description:
      "Scores the sentiment and emotion of reviews, tweets or support tickets in bulk, with aspect-level breakdowns for product feedback.",
    categories: ["AI", "Language"],
    price: null,
    host: "sentiment.moodmeter.example",
    ageDays: 160,
  },
  {
    name: "Background Remover",
    description:
      "Removes the background from product photos and portraits in one call, returning a transparent PNG with clean edges around hair and fur.",
    categories: ["Images", "AI"],
    price: 0.03,
    host: "cutout.pixelkit.example",
    website: "https://pixelkit.example",
    ageDays: 45,
  },
  {
    name: "Image Upscaler",
    description:
      "Upscales images two or four times with detail reconstruction, ideal for old photos, thumbnails and AI-generated art.",
    categories: ["Images"],
    price: 0.06,
    host: "upscale.pixelkit.example",
    ageDays: 11,
  },
  {
    name: "Gas Fee Estimator",
    description:
      "Predicts the base fee and priority fee needed to land a transaction on Base and Ethereum within a target number of blocks.",
    categories: ["Web3", "Dev Tools"],
    price: null,
    host: "gas.chainfeeds.example",
    website: "https://chainfeeds.example/gas",
    ageDays: 210,
  },
  {
    name: "Smart Contract Auditor",
    description:
      "Static and symbolic analysis of Solidity contracts for re-entrancy, access-control and arithmetic bugs, with a severity-ranked report.",
    categories: ["Web3", "Security", "Dev Tools"],
    price: 2.5,
    host: "audit.solsafe.example",
    website: "https://solsafe.example",
    ageDays: 19,
  },
  {
    name: "Domain Intelligence",
    description:
      "WHOIS history, DNS records, TLS certificates and hosting provider for any domain, plus related domains sharing infrastructure.",
    categories: ["Security", "Data"],
    price: 0.02,
    host: "domains.netrecon.example",
    ageDays: 112,
  },
  {
    name: "Recipe Planner",
    description:
      "Builds a weekly meal plan from dietary preferences and a budget, with a combined shopping list grouped by aisle.",
    categories: ["Lifestyle"],
    price: null,
    host: "meals.pantrypal.example",
    ageDays: 9,
  },
  {
    name: "Boba Order Bot",
    description:
      "Orders bubble tea from participating shops near a venue. Built for event demos: the first 50 orders at each event are free.",
    categories: ["Commerce", "Lifestyle"],
    price: 0.01,
    host: "boba.mcpdemo.example",
    website: "https://mcpdemo.example",
    ageDays: 2,
    reference: true,
  },
  {
    name: "E-commerce Product Search",
    description:
      "Searches products across major online stores and returns prices, availability, ratings and shipping estimates, normalised into one schema.",
    categories: ["Commerce", "Search"],
    price: 0.02,
    host: "shop.pricehound.example",
    website: "https://pricehound.example",
    ageDays: 58,
  },
  {
    name: "Currency Converter",
    description:
      "Mid-market exchange rates for 170 fiat currencies and major stablecoins, with historical rates back to 1999.",
    categories: ["Finance"],
    price: null,
    host: "fx.ratesapi.example",
    website: "https://ratesapi.example",
    ageDays: 300,
  },
  {
    name: "PDF Toolkit",
    description:
      "Merges, splits, compresses and converts PDFs, fills form fields, and extracts pages as images — every operation a single tool call.",
    categories: ["Productivity", "Dev Tools"],
    price: 0.01,
    host: "pdf.doctools.example",
    ageDays: 37,
  },
  {
    name: "Calendar Scheduler",
    description:
      "Finds meeting times across attendees' calendars and time zones, proposes slots, and books the one everyone accepts.",
    categories: ["Productivity"],
    price: 0.05,
    host: "schedule.slotfinder.example",
    ageDays: 4,
  },
  {
    name: "Social Media Monitor",
    description:
      "Tracks mentions of a brand or keyword across public social networks and forums, with reach estimates and alerting on spikes.",
    categories: ["Data", "Marketing"],
    price: 0.3,
    host: "monitor.listenly.example",
    website: "https://listenly.example",
    ageDays: 66,
  },
  {
    name: "SEO Auditor",
    description:
      "Crawls a site and reports broken links, missing metadata, slow pages and Core Web Vitals, with a prioritised fix list.",
    categories: ["Marketing", "Dev Tools"],
    price: 0.45,
    host: "seo.rankscope.example",
    website: "https://rankscope.example",
    ageDays: 27,
  },
  {
    name: "Patent Search",
    description:
      "Full-text search over granted patents and applications worldwide, with claim summaries and citation graphs for prior-art research.",
    categories: ["Search", "Legal"],
    price: 1.0,
    host: "patents.priorart.example",
    ageDays: 140,
  },
  {
    name: "Testnet Faucet Helper",
    description:
      "Explains how to fund a Base Sepolia wallet with testnet USDC and ETH, and checks a wallet's balance so an agent knows when funds have arrived.",
    categories: ["Web3", "Dev Tools"],
    price: null,
    host: "faucet.mcpdemo.example",
    website: "https://mcpdemo.example/faucet",
    ageDays: 16,
  },
];
