// Open Graph card layout (rendered by next/og to a PNG; only flexbox styles apply).
export function OgCard({
  eyebrow,
  title,
  subtitle,
  footer,
}: {
  eyebrow: string;
  title: string;
  subtitle: string;
  footer: string;
}) {
  return (
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        padding: 72,
        background: "linear-gradient(135deg, #eef2ff 0%, #ffffff 60%)",
        color: "#111827",
        fontFamily: "sans-serif",
      }}
    >
      <div style={{ display: "flex", alignItems: "center", gap: 16, fontSize: 30, fontWeight: 700 }}>
        <div
          style={{
            width: 52,
            height: 52,
            borderRadius: 12,
            background: "#3730a3",
            color: "white",
            display: "flex",
            alignItems: "center",
            justifyContent: "center",
            fontSize: 32,
          }}
        >
          A
        </div>
        Agora · {eyebrow}
      </div>
      <div style={{ display: "flex", flexDirection: "column", gap: 20 }}>
        <div style={{ fontSize: title.length > 40 ? 60 : 76, fontWeight: 800, lineHeight: 1.05 }}>{title}</div>
        <div style={{ fontSize: 32, color: "#4b5563", lineHeight: 1.3 }}>
          {subtitle.length > 140 ? `${subtitle.slice(0, 137)}…` : subtitle}
        </div>
      </div>
      <div style={{ fontSize: 28, color: "#3730a3", fontWeight: 600 }}>{footer}</div>
    </div>
  );
}
