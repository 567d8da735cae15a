/** The toolbar's buttons share one look (Linear-like: quiet, bordered, small); a broken one is red. */
export function toolbarButton({ broken = false, className = "" }: { broken?: boolean; className?: string } = {}): string {
  const tone = broken ? "border-red-400 text-red-800" : "border-slate-300 text-slate-800";
  return `inline-flex items-center gap-1.5 rounded-md border bg-white px-2.5 py-1 text-sm hover:bg-slate-50 aria-expanded:bg-slate-100 disabled:opacity-50 ${tone} ${className}`.trimEnd();
}

export const popoverPanel = "z-40 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg focus:outline-none";
