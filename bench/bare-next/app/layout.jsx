// An empty layout: what any Next page costs before a site's own layout.
export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
