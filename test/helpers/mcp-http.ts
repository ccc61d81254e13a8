/** `crawlkit mcp --http` started as a process, for the MCP tests. */
import type { ChildProcess } from 'node:child_process';

/** The `/mcp` URL a `crawlkit mcp --http` process writes to its stderr once it listens. */
export function mcpUrlOf(cli: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    cli.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const found = /http:\/\/\S+\/mcp/.exec(text);
      if (found) resolve(found[0]);
    });
    cli.on('exit', () => reject(new Error(`crawlkit mcp exited: ${text}`)));
  });
}
