import { Sandbox } from "@/lib/sandbox/sandbox";
import { basicAuthorizationHeader } from "@/lib/sandbox/core/basic-credentials";
const sb = new Sandbox({ accounts: [{ key: "k", secret: "s", groups: 100_000, events: 60, seed: 4242 }] });
let t = performance.now(); sb.warmUp(); console.log("warm", Math.round(performance.now() - t));
sb.setRateLimit({ credits: 1e15 });
const tok = JSON.parse((sb.handle({ method: "POST", path: "/api/v1/oauth2/token", query: "", headers: { authorization: basicAuthorizationHeader("k", "s"), "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials", baseUrl: "http://x" }) as any).body).access_token;
for (const q of [""]) {
  const req = { method: "GET", path: "/api/v1/webhook-groups", query: q, headers: { authorization: `Bearer ${tok}` }, body: "", baseUrl: "http://x" };
  for (let i = 0; i < 50; i++) sb.handle(req);
  const N = 5000; t = performance.now();
  for (let i = 0; i < N; i++) sb.handle(req);
  console.log(q || "default", ((performance.now() - t) / N).toFixed(3), "ms/req");
}
