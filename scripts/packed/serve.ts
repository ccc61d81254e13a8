/** `crawlkit serve` started from the install folder, for the steps that talk to it over HTTP. */
import { spawn } from 'node:child_process';

export interface Served {
  /** The origin serve printed on its first line. */
  url: string;
  /** Sends SIGTERM and resolves once serve has exited, with its exit code and what it printed on stderr. */
  stop(): Promise<{ code: number | null; stderr: string }>;
}

/**
 * Runs `<runtime> <cli> serve --port 0 --engine http` in `cwd` and resolves once it prints where it listens.
 * `runtime`: a Node binary, or a command and its leading arguments (`['deno', 'run', '-A']`).
 */
export async function startServe(
  runtime: string | readonly string[],
  cli: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<Served> {
  const [command, ...leading] = typeof runtime === 'string' ? [runtime] : runtime;
  const child = spawn(command!, [...leading, cli, 'serve', '--port', '0', '--engine', 'http'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stop = async () => {
    child.kill('SIGTERM');
    return { code: await exited, stderr };
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const line = out.split('\n')[0];
        if (out.includes('\n') && line) resolve(line.trim());
      });
      void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
