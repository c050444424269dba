import type { ReactNode } from "react";

export const metadata = {
  title: "ChainSWE",
  description: "A benchmark for coding agents fixing chains of dependent bugs",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: "2rem auto", maxWidth: "60rem", padding: "0 1rem" }}>
        {children}
      </body>
    </html>
  );
}
