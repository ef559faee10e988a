// Rendered on its first request and stored in the route cache, as Agora's detail page is: every request of the
// bench names a new slug, so each answer is a first render plus storing the entry.
export const revalidate = 300;
export const dynamicParams = true;

export function generateStaticParams() {
  return [];
}

export default async function Stored({ params }) {
  const { slug } = await params;
  return <p>{slug}</p>;
}
