"use client";

import { useEffect, useId, useState } from "react";
import Link from "next/link";
import { ChevronDown, Loader2 } from "lucide-react";
import { Popover } from "@/components/ui/popover";
import { MORE_VIEWS_SEARCH_MAX } from "@/lib/views/limits";
import type { MoreView, MoreViewsPage } from "@/lib/views/tabs";
import { jsonBodyOrNull } from "@/lib/http/json-body";
import { ViewMarks } from "./view-marks";

/** Typing pauses this long before the list is searched again on the server. */
const SEARCH_DEBOUNCE_MS = 250;

type Loaded = { status: "loading" } | { status: "ok"; views: MoreView[]; total: number; nextOffset: number | null } | { status: "error"; message: string };

async function fetchMoreViews(page: string, search: string, offset: number, signal: AbortSignal): Promise<MoreViewsPage> {
  const params = new URLSearchParams({ page, q: search, offset: String(offset) });
  const response = await fetch(`/api/views/more?${params.toString()}`, { signal, headers: { Accept: "application/json" } });
  const body = await jsonBodyOrNull<MoreViewsPage & { error?: string }>(response);
  if (!response.ok || !body) throw new Error(body?.error ?? `The server answered ${response.status}.`);
  return body;
}

/**
 * "More": the views of this page that are not among its tabs, in a popover. Nothing of the list is
 * in the page: it is asked of the server (/api/views/more) when the popover opens, searched by name
 * and read a few at a time ("Show more"). Keyboard: the button opens it with Enter or Space, the
 * focus starts in the search box, Tab walks the list, Escape closes it and gives the focus back to
 * the button. Without JavaScript the button is a link to /views, which lists every view.
 */
export function MoreViews({ page, count }: { page: string; count: number }) {
  const [open, setOpen] = useState(false);
  return (
    <Popover<HTMLAnchorElement>
      open={open}
      onOpenChange={setOpen}
      align="end"
      aria-label="More saved views"
      className="z-50 w-80 max-w-[calc(100vw-1rem)] rounded-lg border border-slate-200 bg-white p-3 shadow-lg"
      trigger={(props) => (
        <Link
          href="/views"
          prefetch={false}
          role="button"
          {...props}
          className="flex shrink-0 items-center gap-1 rounded-full border border-slate-200 bg-white px-3 py-1 text-sm text-slate-700 hover:bg-slate-50 data-[state=open]:bg-slate-100"
          data-testid="more-views-toggle"
        >
          More
          <span className="rounded-full bg-slate-100 px-1.5 text-xs text-slate-600">
            {count}
            <span className="sr-only"> other views</span>
          </span>
          <ChevronDown className="size-3.5" aria-hidden />
        </Link>
      )}
    >
      <MoreViewsList page={page} onChosen={() => setOpen(false)} />
    </Popover>
  );
}

/** The popover's content: mounted when it opens (Radix unmounts it when it closes), so each opening reads the list afresh. */
function MoreViewsList({ page, onChosen }: { page: string; onChosen: () => void }) {
  const searchId = useId();
  const [search, setSearch] = useState("");
  const [loaded, setLoaded] = useState<Loaded>({ status: "loading" });
  const [loadingMore, setLoadingMore] = useState(false);

  // The first views, then again as the search changes (debounced; a newer search aborts an older one).
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        fetchMoreViews(page, search.trim(), 0, controller.signal)
          .then((body) => setLoaded({ status: "ok", views: body.views, total: body.total, nextOffset: body.nextOffset }))
          .catch((error: unknown) => {
            if (!controller.signal.aborted) setLoaded({ status: "error", message: error instanceof Error ? error.message : "The views could not be loaded." });
          });
      },
      search ? SEARCH_DEBOUNCE_MS : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [page, search]);

  async function showMore() {
    if (loaded.status !== "ok" || loaded.nextOffset === null) return;
    setLoadingMore(true);
    try {
      const body = await fetchMoreViews(page, search.trim(), loaded.nextOffset, new AbortController().signal);
      setLoaded({ status: "ok", views: [...loaded.views, ...body.views], total: body.total, nextOffset: body.nextOffset });
    } catch (error) {
      setLoaded({ status: "error", message: error instanceof Error ? error.message : "The views could not be loaded." });
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <div className="space-y-2" data-testid="more-views">
      <label htmlFor={searchId} className="block text-sm font-medium text-slate-800">
        Find a view
      </label>
      <input
        id={searchId}
        type="search"
        value={search}
        maxLength={MORE_VIEWS_SEARCH_MAX}
        autoComplete="off"
        onChange={(event) => setSearch(event.target.value)}
        className="w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm"
        data-testid="more-views-search"
      />
      {loaded.status === "loading" ? (
        <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
          <Loader2 className="size-4 animate-spin" aria-hidden />
          Loading views…
        </p>
      ) : loaded.status === "error" ? (
        <p className="text-sm text-red-700" role="alert">
          {loaded.message}
        </p>
      ) : (
        <>
          <p className="text-xs text-slate-600" role="status" data-testid="more-views-count">
            {loaded.total === 0 ? (search.trim() ? "No other view has that in its name." : "No other views.") : `${loaded.views.length} of ${loaded.total}`}
          </p>
          {loaded.views.length > 0 ? (
            <ul className="max-h-72 space-y-0.5 overflow-y-auto" aria-label="Other saved views">
              {loaded.views.map((view) => (
                <li key={view.id} className="min-w-0">
                  <MoreViewLink view={view} onChosen={onChosen} />
                </li>
              ))}
            </ul>
          ) : null}
          {loaded.nextOffset !== null ? (
            <button
              type="button"
              onClick={() => void showMore()}
              disabled={loadingMore}
              className="w-full rounded-md border border-slate-300 px-2 py-1 text-sm text-slate-700 hover:bg-slate-50"
              data-testid="more-views-next"
            >
              {loadingMore ? "Loading…" : "Show more"}
            </button>
          ) : null}
        </>
      )}
      <Link href="/views" prefetch={false} onClick={onChosen} className="block text-sm text-brand-700 underline">
        All saved views
      </Link>
    </div>
  );
}

function MoreViewLink({ view, onChosen }: { view: MoreView; onChosen: () => void }) {
  return (
    <Link
      href={view.href}
      prefetch={false}
      onClick={onChosen}
      className="flex min-w-0 items-center gap-1.5 rounded px-2 py-1.5 text-sm text-slate-800 hover:bg-slate-100 focus-visible:bg-slate-100"
      data-testid="more-view"
      data-view-name={view.name}
    >
      <ViewMarks isFavourite={view.isFavourite} scope={view.scope} />
      <span className="min-w-0 truncate">{view.name}</span>
      {view.isDefault ? <span className="shrink-0 rounded bg-slate-100 px-1 text-xs text-slate-600">default</span> : null}
    </Link>
  );
}
