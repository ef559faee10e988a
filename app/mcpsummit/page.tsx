import type { Metadata } from "next";

export const metadata: Metadata = { title: "Event demo" };

export default function DemoPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <h1 className="text-3xl font-bold">Agora Desktop demo</h1>
    </div>
  );
}
