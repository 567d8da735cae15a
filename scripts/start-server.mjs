// `npm start`'s second half: the standalone server (.next/standalone/server.js) with the Node flags
// given here (package.json's start script holds the heap limits), and, on Linux, at most two malloc
// arenas (MALLOC_ARENA_MAX=2) unless the environment already says how many.
//
// Why the arenas: glibc gives each thread that allocates its own arena, up to eight per core. Node's
// worker threads (zlib's compression of responses, crypto, file reads) allocate from theirs, and
// what an arena frees is rarely given back to the system, so the resident set grows under load
// without anything being live: issue 38 measured ~80 MB of it after mixed load. Two arenas trade a
// little allocator contention, which a server with a few busy threads does not feel, for that memory.
// glibc reads the variable once, when the process starts: it cannot be set from inside the server,
// so this script puts it into the server's environment. With process.execve (Node 22.15 and 23.11+)
// the server replaces this process (one process, the same pid, no parent left in memory); elsewhere
// (Windows, an older Node) it runs as a child whose exit is this script's.
import { spawn } from "node:child_process";
import path from "node:path";

const SERVER = path.join(".next", "standalone", "server.js");
const nodeFlags = process.argv.slice(2);

const env = { ...process.env };
if (process.platform === "linux" && env.MALLOC_ARENA_MAX === undefined) env.MALLOC_ARENA_MAX = "2";

if (process.platform !== "win32" && typeof process.execve === "function") {
  process.execve(process.execPath, [process.execPath, ...nodeFlags, SERVER], env);
}

const server = spawn(process.execPath, [...nodeFlags, SERVER], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
