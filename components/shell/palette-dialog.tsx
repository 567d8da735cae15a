"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { Command } from "cmdk";
import { Dialog } from "radix-ui";
import { Bookmark, FileText, Hash, Loader2, Search, Star, Webhook } from "lucide-react";
import type { PaletteGroup, PaletteView } from "@/lib/palette/palette";
import { listingTitle } from "@/lib/listing/titles";
import { GROUP_SEARCH_MIN } from "@/lib/palette/limits";
import type { PalettePage } from "./command-palette";
import { jsonBodyOrNull } from "@/lib/http/json-body";

type Remote<T> = { status: "idle" } | { status: "loading" } | { status: "ok"; data: T } | { status: "error"; message: string };

/** Typing pauses this long before a name is searched on the server (each search is one EMS listing). */
const SEARCH_DEBOUNCE_MS = 300;
const GROUP_ID = /^#?\s*(\d{1,12})$/;

/** Every word of the query appears in the text (case-insensitive). */
function matches(text: string, query: string): boolean {
  const haystack = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

async function readJson<T>(response: Response): Promise<T> {
  const body = await jsonBodyOrNull<T & { error?: string }>(response);
  if (!response.ok || !body) throw new Error(body?.error ?? `The server answered ${response.status}.`);
  return body;
}

/**
 * The palette itself, loaded the first time it opens (cmdk and Radix's dialog are not part of any
 * page's first load): it jumps to a page, a saved view (loaded from /api/palette/views each time it
 * opens) or a webhook group, by id (typed as a number) or by name (searched on the server through
 * /api/palette/webhook-groups, debounced). cmdk gives the list its keyboard (arrows, Enter); Radix's
 * dialog traps focus and closes on Esc.
 */
export function PaletteDialog({ pages, onClose }: { pages: PalettePage[]; onClose: () => void }) {
  const router = useRouter();
  const [query, setQuery] = useState("");
  const [views, setViews] = useState<Remote<PaletteView[]>>({ status: "loading" });
  // The answer of the last name search, with the text it answered: older answers are not shown.
  const [searched, setSearched] = useState<{ text: string; result: Remote<PaletteGroup[]> } | null>(null);
  // The views are read each time the palette opens (it mounts per opening): they change while the
  // portal is open.
  useEffect(() => {
    const controller = new AbortController();
    fetch("/api/palette/views", { signal: controller.signal, headers: { Accept: "application/json" } })
      .then((response) => readJson<{ views: PaletteView[] }>(response))
      .then((body) => setViews({ status: "ok", data: body.views }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setViews({ status: "error", message: error instanceof Error ? error.message : "Your views could not be loaded." });
      });
    return () => controller.abort();
  }, []);

  const trimmed = query.trim();
  const groupId = GROUP_ID.exec(trimmed)?.[1];
  const nameSearch = !groupId && trimmed.length >= GROUP_SEARCH_MIN ? trimmed : null;
  const groups: Remote<PaletteGroup[]> = !nameSearch ? { status: "idle" } : searched?.text === nameSearch ? searched.result : { status: "loading" };

  // A name is searched once typing pauses; a newer query aborts the older one's request.
  useEffect(() => {
    if (!nameSearch) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/palette/webhook-groups?q=${encodeURIComponent(nameSearch)}`, { signal: controller.signal, headers: { Accept: "application/json" } })
        .then((response) => readJson<{ groups: PaletteGroup[] }>(response))
        .then((body) => setSearched({ text: nameSearch, result: { status: "ok", data: body.groups } }))
        .catch((error: unknown) => {
          if (!controller.signal.aborted)
            setSearched({ text: nameSearch, result: { status: "error", message: error instanceof Error ? error.message : "The search failed." } });
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [nameSearch]);

  const go = useCallback(
    (href: string) => {
      onClose();
      router.push(href);
    },
    [router, onClose],
  );

  const shownPages = useMemo(() => pages.filter((page) => matches(page.label, trimmed)), [pages, trimmed]);
  const shownViews = views.status === "ok" ? views.data.filter((view) => matches(`${view.name} ${listingTitle(view.page) ?? view.page}`, trimmed)) : [];
  const inputRef = useRef<HTMLInputElement>(null);

  const itemClass =
    "flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm text-slate-800 data-[selected=true]:bg-brand-50 data-[selected=true]:text-brand-700";
  const noteClass = "px-2 py-2 text-sm text-slate-600";
  const nothing = !groupId && shownPages.length === 0 && shownViews.length === 0 && views.status !== "loading" && groups.status === "idle";

  return (
    <>
      <Dialog.Root open onOpenChange={(next) => !next && onClose()}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
          <Dialog.Content
            className="fixed left-1/2 top-[10vh] z-50 w-[calc(100%-1.5rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-2xl"
            data-testid="command-palette"
            onOpenAutoFocus={(event) => {
              event.preventDefault();
              inputRef.current?.focus();
            }}
          >
            <Dialog.Title className="sr-only">Go to</Dialog.Title>
            <Dialog.Description className="sr-only">
              Type a page, a saved view, a webhook group&apos;s name or its number. Arrow keys choose, Enter opens, Escape closes.
            </Dialog.Description>
            <Command shouldFilter={false} loop label="Go to" className="flex max-h-[min(70vh,32rem)] flex-col">
              <div className="flex items-center gap-2 border-b border-slate-200 px-3">
                <Search aria-hidden className="size-4 shrink-0 text-slate-400" />
                <Command.Input
                  ref={inputRef}
                  value={query}
                  onValueChange={setQuery}
                  placeholder="Pages, views, webhook groups…"
                  className="h-12 w-full min-w-0 bg-transparent text-base text-slate-900 outline-none placeholder:text-slate-400 sm:text-sm"
                  data-testid="palette-input"
                />
                {groups.status === "loading" ? <Loader2 aria-hidden className="size-4 shrink-0 animate-spin text-slate-400" /> : null}
              </div>
              <Command.List className="overflow-y-auto p-2 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-slate-500">
                {groupId ? (
                  <Command.Group heading="Webhook group">
                    <Command.Item value={`group-id-${groupId}`} onSelect={() => go(`/webhook-groups/${groupId}`)} className={itemClass} data-testid="palette-group-id">
                      <Hash aria-hidden className="size-4 shrink-0 text-slate-400" />
                      Open webhook group #{groupId}
                    </Command.Item>
                  </Command.Group>
                ) : null}
                {shownPages.length > 0 ? (
                  <Command.Group heading="Pages">
                    {shownPages.map((page) => (
                      <Command.Item key={page.href} value={`page-${page.href}`} onSelect={() => go(page.href)} className={itemClass}>
                        <FileText aria-hidden className="size-4 shrink-0 text-slate-400" />
                        {page.label}
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
                        {view.isFavourite ? (
                          <Star aria-hidden className="size-4 shrink-0 fill-amber-400 text-amber-500" />
                        ) : (
                          <Bookmark aria-hidden className="size-4 shrink-0 text-slate-400" />
                        )}
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
                {groups.status !== "idle" ? (
                  <Command.Group heading="Webhook groups">
                    {groups.status === "loading" ? <p className={noteClass}>Searching webhook groups…</p> : null}
                    {groups.status === "error" ? (
                      <p className={`${noteClass} text-red-700`} role="alert" data-testid="palette-group-error">
                        {groups.message}
                      </p>
                    ) : null}
                    {groups.status === "ok" && groups.data.length === 0 ? (
                      <p className={noteClass} data-testid="palette-group-none">
                        No webhook group&apos;s name contains “{trimmed}”.
                      </p>
                    ) : null}
                    {groups.status === "ok"
                      ? groups.data.map((group) => (
                          <Command.Item
                            key={group.id}
                            value={`group-${group.id}`}
                            onSelect={() => go(`/webhook-groups/${group.id}`)}
                            className={itemClass}
                            data-testid="palette-group"
                          >
                            <Webhook aria-hidden className="size-4 shrink-0 text-slate-400" />
                            <span className="min-w-0 flex-1 truncate">{group.name || "(no name)"}</span>
                            <span className="shrink-0 text-xs text-slate-500">#{group.id}</span>
                          </Command.Item>
                        ))
                      : null}
                  </Command.Group>
                ) : null}
                {nothing ? <p className={noteClass}>Nothing matches “{trimmed}”.</p> : null}
              </Command.List>
              <p className="hidden border-t border-slate-200 px-3 py-2 text-xs text-slate-500 sm:block">
                <kbd className="font-sans">↑</kbd> <kbd className="font-sans">↓</kbd> to choose · <kbd className="font-sans">Enter</kbd> to open ·{" "}
                <kbd className="font-sans">Esc</kbd> to close · type a number for a webhook group by id
              </p>
            </Command>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}
