/**
 * The CPU time this thread has used, in milliseconds, where Node can tell it (`process.threadCpuUsage`, Node 22.19 and
 * 23.9 on); undefined before, as on Node 22.16, the oldest crawlkit runs on.
 */
export function threadCpuMs(): number | undefined {
  // Typed as optional, as the oldest Node's types have it (`pnpm typecheck` checks the sources against them too).
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.();
  return usage && (usage.user + usage.system) / 1000;
}
