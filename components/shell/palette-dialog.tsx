"use client";

import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { usePathname, useRouter } from "next/navigation";
import { Command } from "cmdk";
import { Dialog } from "radix-ui";
import { Bookmark, CalendarDays, Download, FileText, Hash, Keyboard, List, Loader2, LogOut, Plus, RefreshCw, Search, Star, Webhook } from "lucide-react";
import type { PaletteEvent, PaletteSyncTarget, PaletteView, PaletteWebhook } from "@/lib/palette/palette";
import { listingTitle } from "@/lib/listing/titles";
import { textSearchListHref } from "@/lib/listing/text-search";
import { RECORD_SEARCH_MAX, RECORD_SEARCH_MIN } from "@/lib/palette/limits";
import { jsonBodyOrNull } from "@/lib/http/json-body";
import { readExportEvents } from "@/lib/listing/export-events";
import { signOutAndLeave } from "@/lib/auth/client-sign-out";
import { syncNowAction } from "@/lib/actions/history/sync-now";
import { useActionForm } from "@/components/forms/use-action-form";
import type { PalettePage } from "./palette-launcher";
import { SHOW_SHORTCUTS_EVENT } from "./shortcut-keys";
import { takeTyped } from "./type-ahead";
import { toast } from "@/components/ui/toast";

type Remote<T> = { status: "idle" } | { status: "loading" } | { status: "ok"; data: T } | { status: "error"; message: string };
type Found = { webhooks: PaletteWebhook[]; webhookTotal: number; events: PaletteEvent[]; eventTotal: number };
type Task = { status: "running"; text: string } | { status: "done"; text: string } | { status: "error"; text: string } | null;

/** What the palette's "Actions" offer; each runs in `run` (its handler, never during render). */
interface PaletteAction {
  kind: "export" | "new-view" | "sync" | "shortcuts" | "sign-out";
  id: string;
  label: string;
  /** More words it is found by. */
  words: string;
  trackerId?: string;
}

/** Typing pauses this long before the records are searched on the server (each search is two EMS listings). */
const SEARCH_DEBOUNCE_MS = 300;
const GROUP_ID = /^#?\s*(\d{1,12})$/;
/** The lists whose rows the palette exports and saves as a view (lib/views: LISTING_PAGES). */
const LISTINGS: Record<string, "webhooks" | "webhook-groups" | "events"> = { "/webhooks": "webhooks", "/webhook-groups": "webhook-groups", "/events": "events" };

/** Every word of the query appears in the text (case-insensitive). */
function matches(text: string, query: string): boolean {
  const haystack = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

class AnswerError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function readJson<T>(response: Response): Promise<T> {
  const body = await jsonBodyOrNull<T & { error?: string }>(response);
  if (!response.ok || !body) throw new AnswerError(body?.error ?? `The server answered ${response.status}.`, response.status);
  return body;
}

/** A failed search in words: the EMS's own reason, said to be the EMS's when it could not be reached. */
function searchFailure(error: unknown): string {
  if (error instanceof AnswerError) return error.status >= 500 || error.status === 429 ? `Couldn't reach the EMS: ${error.message}` : error.message;
  return "Couldn't reach the portal: check your connection and try again.";
}

/** The list's own options, as its export and a saved view take them (no page, no opened view). */
function listOptions(): string {
  const params = new URLSearchParams(window.location.search);
  params.delete("page");
  params.delete("view");
  return params.toString();
}

/** Saves `blob` as a file, as the export button does. */
function save(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = href;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * The palette itself, loaded the first time it opens (cmdk and Radix's dialog are not part of any
 * page's first load). Typing searches the person's webhooks (by name, URL or host) and events (by
 * name), or a record by its number, on the server through /api/palette/search (debounced, with
 * their own credential); it also jumps to a page or a saved view (read from /api/palette/views each
 * time it opens) and runs actions: export this list as CSV, save it as a new view, sync the change
 * history now (owners and admins: /api/palette/actions), show the keyboard shortcuts, sign out.
 * cmdk gives the list its keyboard (arrows, Enter); Radix's dialog traps focus and closes on Esc.
 */
export function PaletteDialog({ pages, mac, onClose }: { pages: PalettePage[]; mac: boolean; onClose: () => void }) {
  const router = useRouter();
  const pathname = usePathname();
  const [query, setQuery] = useState("");
  const [views, setViews] = useState<Remote<PaletteView[]>>({ status: "loading" });
  const [syncTargets, setSyncTargets] = useState<PaletteSyncTarget[]>([]);
  // The answer of the last search, with the text it answered: older answers are not shown.
  const [searched, setSearched] = useState<{ text: string; result: Remote<Found> } | null>(null);
  const [task, setTask] = useState<Task>(null);
  // The running export's abort: the export ends with the palette.
  const exportAbortRef = useRef<AbortController | null>(null);

  // Views and actions are read each time the palette opens (it mounts per opening): they change
  // while the portal is open.
  useEffect(() => {
    const controller = new AbortController();
    const init = { signal: controller.signal, headers: { Accept: "application/json" } };
    fetch("/api/palette/views", init)
      .then((response) => readJson<{ views: PaletteView[] }>(response))
      .then((body) => setViews({ status: "ok", data: body.views }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setViews({ status: "error", message: error instanceof Error ? error.message : "Your views could not be loaded." });
      });
    // Without the list, the palette only lacks "Sync now": nothing to say about it.
    fetch("/api/palette/actions", init)
      .then((response) => readJson<{ syncTargets: PaletteSyncTarget[] }>(response))
      .then((body) => setSyncTargets(body.syncTargets))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn("palette.actions_failed", error);
      });
    return () => {
      controller.abort();
      exportAbortRef.current?.abort();
    };
  }, []);

  const trimmed = query.trim();
  const groupId = GROUP_ID.exec(trimmed)?.[1];
  const tooLong = trimmed.length > RECORD_SEARCH_MAX;
  const recordSearch = trimmed.length >= RECORD_SEARCH_MIN && !tooLong ? trimmed : null;
  const found: Remote<Found> = tooLong
    ? { status: "error", message: `A search has at most ${RECORD_SEARCH_MAX} characters.` }
    : !recordSearch
      ? { status: "idle" }
      : searched?.text === recordSearch
        ? searched.result
        : { status: "loading" };

  // The records are searched once typing pauses; a newer query aborts the older one's request.
  useEffect(() => {
    if (!recordSearch) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/palette/search?q=${encodeURIComponent(recordSearch)}`, { signal: controller.signal, headers: { Accept: "application/json" } })
        .then((response) => readJson<Found>(response))
        .then((body) => setSearched({ text: recordSearch, result: { status: "ok", data: body } }))
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setSearched({ text: recordSearch, result: { status: "error", message: searchFailure(error) } });
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [recordSearch]);

  const go = useCallback(
    (href: string) => {
      onClose();
      router.push(href);
    },
    [router, onClose],
  );

  // "Sync now" goes through the same server action as Settings' button (its role check included).
  const syncFormId = useId();
  const sync = useActionForm(syncNowAction);
  const syncAnswer: Task = sync.pending
    ? { status: "running", text: "Syncing the change history…" }
    : sync.state.status === "success"
      ? { status: "done", text: sync.state.message ?? "Synced." }
      : sync.state.status === "error"
        ? { status: "error", text: sync.state.message ?? "The sync failed." }
        : null;

  const listing = LISTINGS[pathname];
  // A finished export has nothing left to show here: the palette closes and a toast says what was saved.
  function finished(text: string) {
    toast.success(text);
    onClose();
  }
  async function exportList() {
    const abort = new AbortController();
    exportAbortRef.current = abort;
    const isHealth = pathname === "/health";
    setTask({ status: "running", text: "Exporting CSV…" });
    try {
      if (isHealth) {
        const response = await fetch("/api/health-findings", { signal: abort.signal });
        if (!response.ok)
          throw new AnswerError((await jsonBodyOrNull<{ error?: string }>(response))?.error ?? `The export failed (${response.status}).`, response.status);
        save(await response.blob(), `health-findings-${new Date().toISOString().slice(0, 10)}.csv`);
        finished("Exported the findings as CSV.");
        return;
      }
      const params = new URLSearchParams(listOptions());
      params.set("format", "csv");
      const response = await fetch(`/api/export/${listing}?${params.toString()}`, { signal: abort.signal });
      if (!response.ok || !response.body)
        throw new AnswerError((await jsonBodyOrNull<{ error?: string }>(response))?.error ?? `The export failed (${response.status}).`, response.status);
      const chunks: string[] = [];
      let filename = `${listing}.csv`;
      let failed: string | null = null;
      let total: number | null = null;
      let rows = 0;
      await readExportEvents(response.body, (event) => {
        if (event.type === "start") {
          filename = event.filename || filename;
          total = event.total;
        } else if (event.type === "data") {
          chunks.push(event.text);
          rows = event.rows;
          setTask({
            status: "running",
            text: `Exporting CSV… ${rows.toLocaleString("en-US")}${total !== null ? ` of ${(total as number).toLocaleString("en-US")}` : ""} rows`,
          });
        } else if (event.type === "error") failed = event.message;
        else if (event.type === "end") rows = event.rows;
      });
      if (failed) throw new AnswerError(failed, 502);
      save(new Blob(chunks, { type: "text/csv;charset=utf-8" }), filename);
      finished(`Exported ${rows.toLocaleString("en-US")} rows as CSV.`);
    } catch (error) {
      if (abort.signal.aborted) return;
      setTask({ status: "error", text: error instanceof AnswerError ? error.message : "The export stopped before the end; nothing was saved. Please try again." });
    }
  }

  const icon = "size-4 shrink-0 text-slate-400";
  const actions: PaletteAction[] = [
    ...(listing || pathname === "/health" ? [{ kind: "export" as const, id: "export", label: "Export this list as CSV", words: "download csv file" }] : []),
    ...(listing ? [{ kind: "new-view" as const, id: "new-view", label: "New view from this list", words: "save view filters" }] : []),
    ...syncTargets.map((target) => ({
      kind: "sync" as const,
      id: `sync-${target.trackerId}`,
      trackerId: target.trackerId,
      label: syncTargets.length > 1 ? `Sync now: ${target.accountLabel}` : "Sync now",
      words: "change history changes refresh",
    })),
    { kind: "shortcuts", id: "shortcuts", label: "Keyboard shortcuts", words: "keys help ?" },
    { kind: "sign-out", id: "sign-out", label: "Sign out", words: "log out leave" },
  ];
  const actionIcons: Record<PaletteAction["kind"], React.ReactNode> = {
    export: <Download aria-hidden className={icon} />,
    "new-view": <Plus aria-hidden className={icon} />,
    sync: <RefreshCw aria-hidden className={icon} />,
    shortcuts: <Keyboard aria-hidden className={icon} />,
    "sign-out": <LogOut aria-hidden className={icon} />,
  };

  function run(action: PaletteAction) {
    switch (action.kind) {
      case "export":
        void exportList();
        return;
      case "new-view":
        if (listing) go(`/views/new?${new URLSearchParams({ page: listing, query: listOptions() }).toString()}`);
        return;
      case "sync": {
        // Through the hidden form below: the same server action and answer as Settings' button.
        const form = document.getElementById(syncFormId);
        if (!(form instanceof HTMLFormElement)) return;
        const input = form.elements.namedItem("trackerId");
        if (input instanceof HTMLInputElement) input.value = action.trackerId ?? "";
        form.requestSubmit();
        return;
      }
      case "shortcuts":
        onClose();
        window.dispatchEvent(new Event(SHOW_SHORTCUTS_EVENT));
        return;
      case "sign-out":
        setTask({ status: "running", text: "Signing out…" });
        void signOutAndLeave();
        return;
    }
  }

  const shownPages = useMemo(() => pages.filter((page) => matches(`${page.label} go to`, trimmed)), [pages, trimmed]);
  const shownActions = actions.filter((action) => matches(`${action.label} ${action.words}`, trimmed));
  const shownViews = views.status === "ok" ? views.data.filter((view) => matches(`${view.name} ${listingTitle(view.page) ?? view.page}`, trimmed)) : [];
  const inputRef = useRef<HTMLInputElement>(null);
  const status = syncAnswer ?? task;

  const itemClass =
    "flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm text-slate-800 data-[selected=true]:bg-brand-50 data-[selected=true]:text-brand-700";
  const noteClass = "px-2 py-2 text-sm text-slate-600 [overflow-wrap:anywhere]";
  const detailClass = "min-w-0 shrink truncate text-xs text-slate-500";
  const nothing = !groupId && found.status === "idle" && shownPages.length === 0 && shownActions.length === 0 && shownViews.length === 0 && views.status !== "loading";

  return (
    <Dialog.Root open onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          className="fixed left-1/2 top-[10vh] z-50 w-[calc(100%-1.5rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-2xl"
          data-testid="command-palette"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            inputRef.current?.focus();
            // What was typed while the palette loaded (type-ahead.ts); from here on keys reach the input.
            const typed = takeTyped();
            if (typed) setQuery((current) => current + typed);
          }}
          // Handled here, so a side panel under the palette does not close on the same key.
          onEscapeKeyDown={(event) => {
            event.preventDefault();
            onClose();
          }}
        >
          <Dialog.Title className="sr-only">Search and go</Dialog.Title>
          <Dialog.Description className="sr-only">
            Type a webhook&apos;s name, URL or host, an event&apos;s name, a number, a page or an action. Arrow keys choose, Enter opens, Escape closes.
          </Dialog.Description>
          <form id={syncFormId} {...sync.formProps} hidden>
            <input type="hidden" name="trackerId" />
          </form>
          <Command shouldFilter={false} loop label="Search and go" className="flex max-h-[min(70vh,34rem)] flex-col">
            <div className="flex items-center gap-2 border-b border-slate-200 px-3">
              <Search aria-hidden className="size-4 shrink-0 text-slate-400" />
              <Command.Input
                ref={inputRef}
                value={query}
                onValueChange={setQuery}
                placeholder="Webhooks by name or URL, events, pages, actions…"
                className="h-12 w-full min-w-0 bg-transparent text-base text-slate-900 outline-none placeholder:text-slate-400 sm:text-sm"
                data-testid="palette-input"
              />
              {found.status === "loading" ? <Loader2 aria-hidden className="size-4 shrink-0 animate-spin text-slate-400" /> : null}
            </div>
            {status ? (
              <p
                role={status.status === "error" ? "alert" : "status"}
                className={`border-b border-slate-200 px-3 py-2 text-sm ${status.status === "error" ? "bg-red-50 text-red-800" : status.status === "done" ? "bg-emerald-50 text-emerald-900" : "text-slate-700"}`}
                data-testid="palette-task"
              >
                {status.text}
              </p>
            ) : null}
            <Command.List className="overflow-y-auto p-2 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-slate-500">
              {found.status === "loading" ? (
                <Command.Loading>
                  <p className={noteClass} data-testid="palette-searching">
                    Searching webhooks and events…
                  </p>
                </Command.Loading>
              ) : null}
              {found.status === "error" ? (
                <p className={`${noteClass} text-red-700`} role="alert" data-testid="palette-search-error">
                  {found.message}
                </p>
              ) : null}
              {found.status === "ok" ? (
                <Command.Group heading="Webhooks">
                  {found.data.webhooks.length === 0 ? (
                    <p className={noteClass} data-testid="palette-webhook-none">
                      No webhook matches “{trimmed}”.
                    </p>
                  ) : null}
                  {found.data.webhooks.map((hook) => (
                    <Command.Item
                      key={hook.id}
                      value={`webhook-${hook.id}`}
                      onSelect={() => go(`/webhooks/${hook.id}`)}
                      className={itemClass}
                      data-testid="palette-webhook"
                    >
                      <Webhook aria-hidden className={icon} />
                      <span className="min-w-0 flex-1 truncate">
                        {hook.name || `Webhook ${hook.id}`}
                        {hook.enabled ? null : <span className="ml-1 text-xs text-slate-500">(disabled)</span>}
                      </span>
                      <code className={detailClass} title={hook.url}>
                        {hook.host || hook.url}
                      </code>
                      <span className="shrink-0 text-xs text-slate-500">#{hook.id}</span>
                    </Command.Item>
                  ))}
                  {found.data.webhookTotal > found.data.webhooks.length ? (
                    <Command.Item value="webhook-all" onSelect={() => go(textSearchListHref("webhooks", trimmed))} className={itemClass}>
                      <List aria-hidden className={icon} />
                      All {found.data.webhookTotal.toLocaleString("en-US")} matching webhooks
                    </Command.Item>
                  ) : null}
                </Command.Group>
              ) : null}
              {found.status === "ok" ? (
                <Command.Group heading="Events">
                  {found.data.events.length === 0 ? (
                    <p className={noteClass} data-testid="palette-event-none">
                      No event matches “{trimmed}”.
                    </p>
                  ) : null}
                  {found.data.events.map((event) => (
                    <Command.Item key={event.id} value={`event-${event.id}`} onSelect={() => go(`/events/${event.id}`)} className={itemClass} data-testid="palette-event">
                      <CalendarDays aria-hidden className={icon} />
                      <span className="min-w-0 flex-1 truncate">{event.name || `Event ${event.id}`}</span>
                      <span className={detailClass}>{[event.status, event.startDate].filter(Boolean).join(" · ")}</span>
                      <span className="shrink-0 text-xs text-slate-500">#{event.id}</span>
                    </Command.Item>
                  ))}
                  {found.data.eventTotal > found.data.events.length ? (
                    <Command.Item value="event-all" onSelect={() => go(textSearchListHref("events", trimmed))} className={itemClass}>
                      <List aria-hidden className={icon} />
                      All {found.data.eventTotal.toLocaleString("en-US")} matching events
                    </Command.Item>
                  ) : null}
                </Command.Group>
              ) : null}
              {groupId || shownPages.length > 0 ? (
                <Command.Group heading="Pages">
                  {groupId ? (
                    <Command.Item value={`group-id-${groupId}`} onSelect={() => go(`/webhook-groups/${groupId}`)} className={itemClass} data-testid="palette-group-id">
                      <Hash aria-hidden className={icon} />
                      Open webhook group #{groupId}
                    </Command.Item>
                  ) : null}
                  {shownPages.map((page) => (
                    <Command.Item key={page.href} value={`page-${page.href}`} onSelect={() => go(page.href)} className={itemClass}>
                      <FileText aria-hidden className={icon} />
                      {page.label}
                    </Command.Item>
                  ))}
                </Command.Group>
              ) : null}
              {shownActions.length > 0 ? (
                <Command.Group heading="Actions">
                  {shownActions.map((action) => (
                    <Command.Item
                      key={action.id}
                      value={`action-${action.id}`}
                      onSelect={() => run(action)}
                      className={itemClass}
                      data-testid={`palette-action-${action.kind}`}
                    >
                      {actionIcons[action.kind]}
                      <span className="min-w-0 flex-1 truncate">{action.label}</span>
                      {action.kind === "shortcuts" ? <kbd className="shrink-0 font-sans text-xs text-slate-500">?</kbd> : null}
                    </Command.Item>
                  ))}
                </Command.Group>
              ) : null}
              {views.status === "error" || views.status === "loading" || shownViews.length > 0 ? (
                <Command.Group heading="Saved views">
                  {views.status === "loading" ? <p className={noteClass}>Loading your views…</p> : null}
                  {views.status === "error" ? (
                    <p className={`${noteClass} text-red-700`} role="alert">
                      {views.message}
                    </p>
                  ) : null}
                  {shownViews.map((view) => (
                    <Command.Item key={view.id} value={`view-${view.id}`} onSelect={() => go(view.href)} className={itemClass}>
                      {view.isFavourite ? <Star aria-hidden className="size-4 shrink-0 fill-amber-400 text-amber-500" /> : <Bookmark aria-hidden className={icon} />}
                      <span className="min-w-0 flex-1 truncate">
                        {view.isFavourite ? <span className="sr-only">Favourite: </span> : null}
                        {view.name}
                      </span>
                      <span className="shrink-0 text-xs text-slate-500">
                        {listingTitle(view.page) ?? view.page} · {view.scope === "TEAM" ? "Team" : "Personal"}
                      </span>
                    </Command.Item>
                  ))}
                </Command.Group>
              ) : null}
              {nothing ? <p className={noteClass}>Nothing matches “{trimmed}”.</p> : null}
            </Command.List>
            <p className="hidden border-t border-slate-200 px-3 py-2 text-xs text-slate-500 sm:block">
              <kbd className="font-sans">↑</kbd> <kbd className="font-sans">↓</kbd> to choose · <kbd className="font-sans">Enter</kbd> to open ·{" "}
              <kbd className="font-sans">Esc</kbd> to close · <kbd className="font-sans">{mac ? "⌘K" : "Ctrl K"}</kbd> from any page
            </p>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
