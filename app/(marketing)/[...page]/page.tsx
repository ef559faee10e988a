import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ProsePage } from "@/components/content/prose-page";
import { contentPages } from "@/content/pages";

type Props = { params: Promise<{ page: string[] }> };

// Only the pages in content/pages.ts exist, each prerendered at build time; any other path is a 404.
export const dynamicParams = false;

export function generateStaticParams(): { page: string[] }[] {
  return Object.keys(contentPages).map((path) => ({ page: path.slice(1).split("/") }));
}

async function contentPage({ params }: Props) {
  const path = `/${(await params).page.join("/")}`;
  const page = Object.hasOwn(contentPages, path) ? contentPages[path] : undefined;
  if (!page) notFound();
  return { path, ...page };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { path, title, description } = await contentPage(props);
  return {
    title,
    description,
    alternates: { canonical: path },
    openGraph: { title, description, url: path, type: "article" },
  };
}

export default async function Page(props: Props) {
  const { eyebrow, Content } = await contentPage(props);
  return (
    <ProsePage eyebrow={eyebrow}>
      <Content />
    </ProsePage>
  );
}
