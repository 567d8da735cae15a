/** The ⋯ button of a saved view: its stand-in (view-tabs) and the real trigger (view-menu) look alike. */
export const viewMenuTrigger = "mr-1 rounded-full p-1 text-slate-500 hover:bg-slate-200 hover:text-slate-800 data-[state=open]:bg-slate-200";
