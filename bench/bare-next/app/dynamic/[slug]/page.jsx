import { connection } from "next/server";

// Rendered on every request, as Agora's search page is.
export default async function Dynamic({ params }) {
  await connection();
  const { slug } = await params;
  return <p>{slug}</p>;
}
