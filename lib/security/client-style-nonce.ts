"use client";

import { setNonce } from "get-nonce";

/**
 * Radix's dialogs and menus lock page scrolling with a `<style>` element they create in the
 * browser (react-remove-scroll, through react-style-singleton). The page's Content-Security-Policy
 * only lets styles with this response's nonce apply, so that element must carry it: it is read back
 * from Next.js's own scripts (a browser exposes a nonce through the `nonce` property only) and
 * handed to get-nonce, which those libraries ask. Imported once, by the root layout's Toaster.
 */
if (typeof document !== "undefined") {
  const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
  if (nonce) setNonce(nonce);
}
