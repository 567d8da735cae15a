import type { MarkState } from "@/lib/coverage/heatmap";

/** A mark's words (the legend, every cell's label and the panel use the same). */
export const MARK_WORDS: Readonly<Record<MarkState, string>> = {
  ok: "delivers",
  degraded: "webhooks, none delivering",
  none: "no webhook",
  missing: "required, missing",
};

/** One mark: its colour is a class of app/globals.css ("Coverage's heat map"), repeated in every cell. */
export function Mark({ state }: { state: MarkState }) {
  return <span aria-hidden className={`mark mark-${state}`} />;
}
