import { parseArgs, type ParseArgsOptionsConfig } from "node:util";

/**
 * A benchmark's flags (`--name value`), each a string with its default. With --help it prints its
 * usage line and ends the process.
 */
export function benchFlags<Name extends string>(usage: string, defaults: Record<Name, string>): Record<Name, string> {
  const options: ParseArgsOptionsConfig = { help: { type: "boolean", default: false } };
  for (const [name, value] of Object.entries<string>(defaults)) options[name] = { type: "string", default: value };
  const { values } = parseArgs({ options });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  return values as Record<Name, string>;
}
