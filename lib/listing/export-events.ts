/**
 * The export's wire format (app/api/export → the export button): one JSON event a line. Not
 * server-only: the button reads it with readExportEvents, the tests with collectExport.
 */
export type ExportFormat = "csv" | "json";

export type ExportEvent =
  | { type: "start"; format: ExportFormat; filename: string; columns: string[]; total: number; matching: number; truncated: boolean; headerValues: "hidden" | "included" }
  /** A piece of the file; `rows` is how many rows have been written so far. */
  | { type: "data"; rows: number; text: string }
  /** Nothing new yet: the next page is awaited (a slow API, or a rate limit waited out). */
  | { type: "heartbeat"; rows: number; waitingSeconds: number }
  | { type: "end"; rows: number }
  | { type: "error"; rows: number; message: string };

export const EXPORT_CONTENT_TYPE = "application/x-ndjson; charset=utf-8";

/** Calls `onEvent` for each event as it arrives. */
export async function readExportEvents(body: ReadableStream<Uint8Array>, onEvent: (event: ExportEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffer += decoder.decode(value, { stream: !done });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== "") onEvent(JSON.parse(line) as ExportEvent);
    }
    if (done) break;
  }
}

/** Every event of an export, and the file its data events make up. */
export async function collectExport(body: ReadableStream<Uint8Array>): Promise<{ events: ExportEvent[]; file: string }> {
  const events: ExportEvent[] = [];
  await readExportEvents(body, (event) => events.push(event));
  const file = events.map((event) => (event.type === "data" ? event.text : "")).join("");
  return { events, file };
}
