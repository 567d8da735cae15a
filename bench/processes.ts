/** Child processes for the benchmarks: started in their own process group, stopped with it, measured. */
import fs from "node:fs";
import net from "node:net";
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

export interface Service {
  name: string;
  child: ChildProcess;
  /** The last lines it printed (for the error message when it dies). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `command` in its own process group; its output is kept (last 64 KB), not shown. */
export function startService(name: string, command: string, args: string[], options: SpawnOptions = {}): Service {
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-64 * 1024);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return {
    name,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        return;
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // already gone
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves with the first match of `pattern` in the service's output. */
export async function waitForOutput(service: Service, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = service.output().match(pattern);
    if (match) return match;
    if (service.child.exitCode !== null) throw new Error(`${service.name} exited (${service.child.exitCode}):\n${service.output()}`);
    if (Date.now() > deadline) throw new Error(`${service.name} did not print ${pattern} within ${timeoutMs / 1000} s:\n${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until `url` answers 2xx. */
export async function waitForHttp(service: Service, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not yet
    }
    if (service.child.exitCode !== null) throw new Error(`${service.name} exited (${service.child.exitCode}):\n${service.output()}`);
    if (Date.now() > deadline) throw new Error(`${service.name} did not answer ${url} within ${timeoutMs / 1000} s:\n${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject).listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The process ids under `rootPid` (itself included), from /proc; [] where there is no /proc. */
function processTree(rootPid: number): number[] {
  if (!fs.existsSync("/proc/self/stat")) return [];
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // it ended meanwhile
    }
  }
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parentOf) if (ppid === tree[i]) tree.push(pid);
  return tree;
}

/**
 * Resident memory (bytes) of the Node process that serves `next start` under `rootPid` (npm and the
 * shell in between are not the portal): the one Next renamed `next-server (v…)`, else the deepest
 * Node process. Null where /proc is not available.
 */
export function nextServerRss(rootPid: number): number | null {
  let found: number | null = null;
  for (const pid of processTree(rootPid)) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (/^next-server/.test(cmdline)) {
        found = pid;
        break;
      }
      if (/(^|\/)node\0/.test(cmdline)) found = pid;
    } catch {
      // it ended meanwhile
    }
  }
  if (found === null) return null;
  try {
    const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${found}/status`, "utf8"));
    return rss ? Number(rss[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The V8 heap of a process started with --trace-gc, read from its output: each collection prints
 * the heap in use before and after it ("Mark-Compact 182.4 (201.0) -> 150.3 (199.8) MB"). The
 * largest "before" is the most the heap held, garbage included (V8 lets it grow towards its cap
 * before a full collection); the largest "after" of a full collection is the most that was live,
 * what decides whether the cap is reached. Both since the last `reset()`.
 */
export function watchHeap(service: Service): { peakMb(): number; peakLiveMb(): number; reset(): void } {
  let peak = 0;
  let peakLive = 0;
  let last = 0;
  let partial = "";
  const read = (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const match = /: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Sweep)[^\d]*([\d.]+) \(([\d.]+)\) -> ([\d.]+)/.exec(line);
      if (!match) continue;
      peak = Math.max(peak, Number(match[2]));
      last = Number(match[4]);
      if (match[1] === "Mark-Compact") peakLive = Math.max(peakLive, last);
    }
  };
  service.child.stdout?.on("data", read);
  return {
    peakMb: () => peak,
    peakLiveMb: () => peakLive,
    reset: () => {
      peak = last;
      peakLive = 0;
    },
  };
}
