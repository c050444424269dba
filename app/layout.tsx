import type { ReactNode } from "react";
import { SiteHeader } from "@/components/ui/SiteHeader";
import { getViewer } from "@/lib/auth/viewer";
import { unreadNotificationCount } from "@/lib/notifications/data";
import { headerFacts } from "@/lib/site/header";
import "./globals.css";

export const metadata = {
  title: "ChainSWE",
  description: "A benchmark for coding agents fixing chains of dependent bugs",
};

// every page reads the session and the database
export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [viewer, facts] = await Promise.all([getViewer(), headerFacts()]);
  const unread = await unreadNotificationCount(viewer);
  return (
    <html lang="en">
      <body>
        {/* the first stop of the keyboard: past the header's links to the page itself */}
        <a className="skip-link" href="#main">
          Skip to main content
        </a>
        <SiteHeader viewer={viewer} facts={facts} unread={unread} />
        <div id="main" tabIndex={-1}>
          {children}
        </div>
      </body>
    </html>
  );
}
