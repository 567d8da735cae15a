/** The toolbar's buttons share one look (Linear-like: quiet, bordered, small). */
export const toolbarButton =
  "inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm text-slate-800 hover:bg-slate-50 aria-expanded:bg-slate-100 disabled:opacity-50";

export const popoverPanel = "z-40 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg focus:outline-none";
