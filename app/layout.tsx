import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import "./globals.css";
import { Toaster } from "@/components/ui/toaster";
import { NoScriptStreaming } from "@/components/ui/no-script-streaming";
import { TimeZoneCookie } from "@/components/ui/time-zone-cookie";

export const metadata: Metadata = {
  title: { default: "EMS Portal", template: "%s · EMS Portal" },
  description: "Webhook groups and events of your Event Management Service, for the whole team.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#4f46e5" };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: proxy.ts gives each response a Content-Security-Policy
  // with a fresh nonce, which Next.js puts on its scripts while rendering. A page built ahead of
  // time (the 404 page would be) has scripts without it, which the policy blocks.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
        >
          Skip to content
        </a>
        <NoScriptStreaming />
        {children}
        <Toaster />
        <TimeZoneCookie />
      </body>
    </html>
  );
}
