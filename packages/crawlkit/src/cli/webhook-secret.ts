/**
 * The webhook secret of a command: `--webhook-secret` (serve, mcp), `CRAWLKIT_WEBHOOK_SECRET`, Firecrawl's
 * `SELF_HOSTED_WEBHOOK_HMAC_SECRET`, then the config file's `webhookSecret` (serve, mcp).
 */
export function resolveWebhookSecret(
  flags: { webhookSecret?: string | undefined },
  env: NodeJS.ProcessEnv,
  file: { webhookSecret?: string | undefined },
): string | undefined {
  return (
    flags.webhookSecret ?? env.CRAWLKIT_WEBHOOK_SECRET ?? env.SELF_HOSTED_WEBHOOK_HMAC_SECRET ?? file.webhookSecret
  );
}
