import { headers } from "next/headers";
import { nonceOf } from "@/lib/security/content-security-policy";

/**
 * Pages stream: a part that waits for the EMS API is sent later, hidden, with a small script that
 * swaps it in for its skeleton. Without JavaScript that script never runs, and the page would stay a
 * skeleton for ever. This style, which only a browser without scripting reads (<noscript>), hides
 * each skeleton (the element right after React's `B:` marker) and shows the streamed parts where they
 * arrived: after the page's frame, in order. Carries the page's nonce, as the policy requires.
 *
 * The `display` rule sits in Tailwind's first layer, `theme`, on purpose: Tailwind's base layer hides
 * `[hidden]` with !important, and among !important rules the earliest layer wins, not the unlayered.
 */
export async function NoScriptStreaming() {
  const policy = (await headers()).get("content-security-policy");
  const nonce = policy ? (nonceOf(policy) ?? undefined) : undefined;
  return (
    <noscript>
      <style nonce={nonce}>
        {`@layer theme{body>div[hidden][id^="S:"]{display:block!important}}template[id^="B:"]+*{display:none!important}body>div[id^="S:"]{max-width:80rem;margin:0 auto;padding:0 1.5rem 1.5rem}.min-h-screen{min-height:0!important}`}
      </style>
    </noscript>
  );
}
