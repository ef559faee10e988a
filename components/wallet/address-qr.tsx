import QRCode from "qrcode";

/**
 * The address as a QR code, drawn on the server as SVG (no script reaches the browser): a phone wallet scans it to
 * fill in where to send USDC. The plain address, not an EIP-681 URI, which some wallets read as a payment request
 * on the wrong chain.
 */
export async function AddressQr({ address }: { address: string }) {
  const svg = await QRCode.toString(address, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 2,
    color: { dark: "#000000", light: "#ffffff" },
  });
  return (
    <figure className="w-44 shrink-0 sm:w-48">
      <div
        role="img"
        aria-label={`QR code of the address ${address}`}
        data-testid="address-qr"
        className="overflow-hidden rounded-lg border bg-white [&_svg]:block [&_svg]:h-auto [&_svg]:w-full"
        dangerouslySetInnerHTML={{ __html: svg }}
      />
      <figcaption className="mt-2 text-center text-xs text-muted-foreground">Scan with a phone wallet</figcaption>
    </figure>
  );
}
