import Link from "next/link";

/** The signed-out pages' frame: the brand, then one card in the middle of the screen. */
export function CenteredCard({ children, width = "sm" }: { children: React.ReactNode; width?: "sm" | "md" | "lg" }) {
  return (
    <main id="main" className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <Link href="/" className="mb-8 flex items-center gap-2 text-lg font-semibold text-slate-900">
        <span aria-hidden className="grid size-8 place-items-center rounded-lg bg-brand-600 text-white">
          E
        </span>
        EMS Portal
      </Link>
      <div
        className={`w-full ${width === "lg" ? "max-w-2xl" : width === "md" ? "max-w-md space-y-4" : "max-w-sm"} rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8`}
      >
        {children}
      </div>
    </main>
  );
}
