// No test asks the network's DNS: a host name the EMS client's outbound door (lib/ems/outbound.ts)
// would resolve is "not found", unless the test installs its own answers with setHostResolver().
import { setHostResolver } from "@/lib/ems/outbound";

setHostResolver(async (host) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host} (tests resolve no host name through DNS)`), { code: "ENOTFOUND" });
});
