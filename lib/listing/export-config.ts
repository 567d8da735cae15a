import { z } from "zod";

export const DEFAULT_EXPORT_MAX_ROWS = 10_000;

/** EXPORT_MAX_ROWS: the most rows one export writes (default 10,000); a bad value falls back, loudly. */
export function exportMaxRows(source: Record<string, string | undefined> = process.env): number {
  const raw = source.EXPORT_MAX_ROWS;
  if (raw === undefined || raw.trim() === "") return DEFAULT_EXPORT_MAX_ROWS;
  const parsed = z.coerce.number().int().min(1).max(1_000_000).safeParse(raw);
  if (!parsed.success) {
    console.warn(`[export] EXPORT_MAX_ROWS=${JSON.stringify(raw)} is not a whole number from 1 to 1,000,000; using ${DEFAULT_EXPORT_MAX_ROWS}.`);
    return DEFAULT_EXPORT_MAX_ROWS;
  }
  return parsed.data;
}
