import "server-only";
import { formatSeconds } from "@/lib/duration";
import type { EmsClient } from "@/lib/ems";
import { log } from "@/lib/log";
import { csvLine } from "@/lib/csv";
import type { ExportEvent, ExportFormat } from "./export-events";
import { withHeaderValuesHidden } from "./header-values";
import { failureOf } from "@/lib/ems-access/shared-read";
import { requestedFields, toEmsQuery } from "./query";
import type { ListingState } from "./search-params";

export { EXPORT_CONTENT_TYPE, type ExportEvent, type ExportFormat } from "./export-events";

export interface ExportOptions {
  maxRows: number;
  /** The export's overall limit, rate-limit waits included: then it stops with an `error` event. */
  maxSeconds: number;
  filename: string;
  /** Write webhook header values as they are (the person asked, and it was audited); hidden otherwise. */
  includeHeaderValues: boolean;
  /** The request's signal: a download the browser gave up on stops the walk. */
  signal?: AbortSignal;
  requestId?: string;
  pageSize?: number;
  /** How often a heartbeat goes out while a page is awaited (5 s). */
  heartbeatMs?: number;
  /**
   * A first page that fails within this long (the heartbeat interval by default) makes startExport
   * throw, so the route answers with the failure's status (403, 429…); after that, the stream is
   * under way and reports failures as an `error` event.
   */
  firstPageWithinMs?: number;
  /** The team the export runs for: its credits are recorded as the team's "export" use (lib/ems/budget.ts). */
  teamId?: string;
  /** Called exactly once when the export is over, whichever way (releases its slot). */
  onFinish?: () => void | Promise<void>;
}

/** The columns of an export: what the page shows (plus what it needs), then the expanded lists. */
export function exportColumns(state: ListingState): string[] {
  return [...requestedFields(state), ...state.expand];
}

const HEARTBEAT = Symbol("heartbeat");

/** Settles with the promise's value, or HEARTBEAT if it takes longer than `ms`. */
function withinOrHeartbeat<T>(promise: Promise<T>, ms: number): Promise<T | typeof HEARTBEAT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = new Promise<typeof HEARTBEAT>((resolve) => {
    timer = setTimeout(() => resolve(HEARTBEAT), ms);
  });
  return Promise.race([promise, tick]).finally(() => clearTimeout(timer));
}

/**
 * What an export sends: the events of lib/listing/export-events.ts, one JSON object a line. The
 * file itself is the concatenation of the `data` texts (the export button puts them together and
 * saves the file); around them the stream says how far it is, and keeps talking while it waits: a
 * `heartbeat` every few seconds while the EMS API is slow or a rate limit is waited out, so that
 * neither the person nor a proxy in between sees a silent connection.
 *
 * Streams every page matching the options (not only the one on screen), as CSV or JSON inside the
 * event stream above, in pages of 200. The EMS client's `pages()` walks the pages, waits out rate
 * limits and, as background work, leaves the reserve of each window to page views (waiting for the
 * reset when it would dip into it, lib/ems/budget.ts); the rest is pulled as the browser reads
 * (backpressure). A cancelled download, the request's end or the time limit stop the walk.
 */
export async function startExport(client: EmsClient, state: ListingState, format: ExportFormat, options: ExportOptions): Promise<{ stream: ReadableStream<Uint8Array> }> {
  // On a loaded server the browser can give up while the route still waits on the database: an
  // "abort" listener added now would never fire, and the walk would hold its slot for nobody.
  if (options.signal?.aborted) {
    await options.onFinish?.();
    throw abortReason(options.signal);
  }
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const startedAt = Date.now();
  const query = toEmsQuery(state, { page: 1, perPage: options.pageSize ?? 200 });
  const controller = new AbortController();
  const iterator = client
    .pages(state.resource, query as never, {
      signal: controller.signal,
      waitForRateLimit: true,
      requestId: options.requestId,
      budget: { kind: "export", teamId: options.teamId },
    })
    [Symbol.asyncIterator]();

  const columns = exportColumns(state);
  const encoder = new TextEncoder();
  const line = (event: ExportEvent) => encoder.encode(`${JSON.stringify(event)}\n`);
  // Events have no headers; a webhook's header values are never exported (only a group export may ask for them).
  const shape =
    state.resource === "events" || (options.includeHeaderValues && state.resource === "webhook-groups")
      ? (item: Record<string, unknown>) => item
      : withHeaderValuesHidden;

  let out: ReadableStreamDefaultController<Uint8Array> | null = null;
  let finished = false;
  let written = 0;
  let started = false;
  let waitingSince = startedAt;
  let pending: Promise<IteratorResult<{ items: unknown[]; meta: { totalCount: number } }>> | null = null;

  const finish = async () => {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    options.signal?.removeEventListener("abort", onRequestAbort);
    controller.abort();
    // The walk is over either way (aborted above); a failure while it winds down is only worth a line.
    await iterator
      .return?.()
      .catch((error: unknown) => log.warn({ event: "export.close_failed", requestId: options.requestId, err: error }, "the export's page walk failed while closing"));
    await options.onFinish?.();
  };
  /** Sends the last event and closes, unless the stream is already over. */
  const end = async (event: ExportEvent | null) => {
    if (finished) return;
    const stream = out;
    await finish();
    try {
      if (event) stream?.enqueue(line(event));
      stream?.close();
    } catch {
      // Already cancelled by the reader.
    }
  };
  const onRequestAbort = () => void finish();
  options.signal?.addEventListener("abort", onRequestAbort, { once: true });
  const deadline = setTimeout(() => {
    log.warn(
      { event: "export.time_limit", requestId: options.requestId, resource: state.resource, written, maxSeconds: options.maxSeconds },
      "export stopped at its time limit",
    );
    void end({
      type: "error",
      rows: written,
      message: `The export was stopped after ${formatSeconds(options.maxSeconds)}, its time limit, with ${written} rows written; nothing was saved. Narrow the filters or try again later.`,
    });
  }, options.maxSeconds * 1000);

  const first = iterator.next();
  pending = first;
  // A quick failure becomes the answer's status; a slow first page is waited for inside the stream.
  const early = await withinOrHeartbeat(
    first.then(
      () => "ok" as const,
      (error: unknown) => ({ error }),
    ),
    options.firstPageWithinMs ?? heartbeatMs,
  );
  if (early !== HEARTBEAT && early !== "ok") {
    await finish();
    throw early.error;
  }
  // Answered before the first page came: the stream's first words say it is waiting.
  let announceWaiting = early === HEARTBEAT;

  const stream = new ReadableStream<Uint8Array>({
    start(streamController) {
      out = streamController;
    },
    async pull(streamOut) {
      if (finished) return;
      if (announceWaiting) {
        announceWaiting = false;
        streamOut.enqueue(line({ type: "heartbeat", rows: 0, waitingSeconds: Math.round((Date.now() - waitingSince) / 1000) }));
        return;
      }
      try {
        if (pending === null) {
          if (written >= options.maxRows) return await end(...closingEvents());
          pending = iterator.next();
          waitingSince = Date.now();
        }
        const result = await withinOrHeartbeat(pending, heartbeatMs);
        if (finished) return;
        if (result === HEARTBEAT) {
          streamOut.enqueue(line({ type: "heartbeat", rows: written, waitingSeconds: Math.round((Date.now() - waitingSince) / 1000) }));
          return;
        }
        pending = null;
        if (!started) {
          started = true;
          const matching = result.done ? 0 : result.value.meta.totalCount;
          const total = Math.min(matching, options.maxRows);
          streamOut.enqueue(
            line({
              type: "start",
              format,
              filename: options.filename,
              columns,
              total,
              matching,
              truncated: matching > options.maxRows,
              headerValues: options.includeHeaderValues ? "included" : "hidden",
            }),
          );
          streamOut.enqueue(line({ type: "data", rows: 0, text: format === "csv" ? csvLine(columns) : "[\n" }));
        }
        const items = result.done ? [] : (result.value.items as Record<string, unknown>[]);
        const batch = items.slice(0, Math.max(0, options.maxRows - written));
        if (batch.length > 0) {
          let text = "";
          for (const item of batch) {
            const row = shape(item);
            text += format === "csv" ? csvLine(columns.map((column) => row[column])) : `${written === 0 ? "" : ",\n"}${JSON.stringify(row)}`;
            written++;
          }
          streamOut.enqueue(line({ type: "data", rows: written, text }));
        }
        if (result.done || batch.length === 0 || written >= options.maxRows) await end(...closingEvents());
      } catch (error) {
        if (finished) return;
        const failure = failureOf(error, options.requestId);
        if (failure.kind !== "unknown")
          log.warn({ event: "export.stopped", requestId: options.requestId, resource: state.resource, written, reason: failure.kind }, "export stopped");
        const message = "message" in failure ? failure.message : "The export failed.";
        await end({ type: "error", rows: written, message: `${message} The export stopped with ${written} rows written; nothing was saved.` });
      }
    },
    async cancel() {
      await finish();
    },
  });

  /** The end of the file (JSON's closing bracket), then `end`: sent as one close. */
  function closingEvents(): [ExportEvent] {
    if (format === "json" && !finished) out?.enqueue(line({ type: "data", rows: written, text: written === 0 ? "]\n" : "\n]\n" }));
    return [{ type: "end", rows: written }];
  }

  return { stream };
}

/** The signal's reason as an error named AbortError, whatever the aborting code passed. */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error && signal.reason.name === "AbortError" ? signal.reason : new DOMException("The request was aborted.", "AbortError");
}
