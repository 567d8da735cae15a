import "server-only";
import type { EmsClient } from "@/lib/ems";
import { log } from "@/lib/log";
import { csvLine } from "./csv";
import { requestedFields, toEmsQuery } from "./query";
import type { ListingState } from "./search-params";

export type ExportFormat = "csv" | "json";

export interface ExportStream {
  /** Rows the file will hold: the matching total, capped. */
  total: number;
  matching: number;
  truncated: boolean;
  columns: string[];
  stream: ReadableStream<Uint8Array>;
}

/** The columns of an export: what the page shows (plus what it needs), then the expanded lists. */
export function exportColumns(state: ListingState): string[] {
  return [...requestedFields(state), ...state.expand];
}

/**
 * Streams every page matching the options (not only the one on screen), as CSV or JSON, in pages of
 * 200. The EMS client's `pages()` walks the pages, waits out rate limits and keeps a reserve for page
 * renders. The first page is fetched before answering so that errors get a proper status and the
 * total is known for the progress bar; the rest is pulled as the browser reads (backpressure), and
 * a cancelled download stops the walk.
 */
export async function startExport(
  client: EmsClient,
  state: ListingState,
  format: ExportFormat,
  options: { maxRows: number; signal?: AbortSignal; requestId?: string; pageSize?: number },
): Promise<ExportStream> {
  const query = toEmsQuery(state, { page: 1, perPage: options.pageSize ?? 200 });
  const controller = new AbortController();
  const abort = () => controller.abort();
  options.signal?.addEventListener("abort", abort, { once: true });
  const iterator = client
    .pages(state.resource, query as never, { signal: controller.signal, waitForRateLimit: true, requestId: options.requestId })
    [Symbol.asyncIterator]();

  const first = await iterator.next();
  const matching = first.done ? 0 : first.value.meta.totalCount;
  const total = Math.min(matching, options.maxRows);
  const columns = exportColumns(state);
  const encoder = new TextEncoder();
  let written = 0;
  let pending: Record<string, unknown>[] | null = first.done ? [] : (first.value.items as unknown as Record<string, unknown>[]);
  let started = false;
  let finished = false;

  const finish = async () => {
    finished = true;
    options.signal?.removeEventListener("abort", abort);
    await iterator.return?.().catch(() => undefined);
  };

  const stream = new ReadableStream<Uint8Array>({
    async pull(out) {
      try {
        if (!started) {
          started = true;
          out.enqueue(encoder.encode(format === "csv" ? csvLine(columns) : "[\n"));
          return;
        }
        let items = pending;
        pending = null;
        if (items === null && written < options.maxRows) {
          const next = await iterator.next();
          items = next.done ? [] : (next.value.items as unknown as Record<string, unknown>[]);
        }
        const room = options.maxRows - written;
        const batch = (items ?? []).slice(0, Math.max(0, room));
        if (batch.length > 0) {
          let chunk = "";
          for (const item of batch) {
            if (format === "csv") chunk += csvLine(columns.map((column) => item[column]));
            else chunk += `${written === 0 ? "" : ",\n"}${JSON.stringify(item)}`;
            written++;
          }
          out.enqueue(encoder.encode(chunk));
          return;
        }
        if (format === "json") out.enqueue(encoder.encode(written === 0 ? "]\n" : "\n]\n"));
        await finish();
        out.close();
      } catch (error) {
        await finish();
        if (!controller.signal.aborted) log.error({ event: "export.stopped", requestId: options.requestId, resource: state.resource, written, err: error }, "export stopped");
        out.error(error);
      }
    },
    async cancel() {
      controller.abort();
      if (!finished) await finish();
    },
  });

  return { total, matching, truncated: matching > options.maxRows, columns, stream };
}
