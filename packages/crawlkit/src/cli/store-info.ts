/** `crawlkit store info`: which crawlkit the store on disk belongs to, read without migrating it. */
import { join } from 'node:path';

import { sqliteSchemaVersion } from '@crawlkit/store';

import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { VERSION } from './version.js';

/** What an upgrade or a roll-back does to a store of `version`, for a crawlkit whose schema is `latest`. */
function verdict(version: number, latest: number): string {
  if (version === latest) return "this crawlkit's";
  if (version > latest) {
    return `written by a newer crawlkit: this one reads up to ${latest} and refuses the store (STORE_SCHEMA_TOO_NEW); upgrade crawlkit`;
  }
  return (
    `this crawlkit writes ${latest}: the next command that opens the store migrates it, keeping every page, job and ` +
    `schedule, after a copy of the file as it is (crawlkit.db.schema-${version}.bak beside it: the way back), and a ` +
    'crawlkit older than this one then refuses the migrated file'
  );
}

export function storeCommand(ctx: CommandContext, action: string): Promise<number> {
  if (action !== 'info') throw new CliError(`Unknown store action "${action}": use info`);
  const file = ctx.inMemory ? ctx.storeDir : join(ctx.storeDir, 'crawlkit.db');
  const found = ctx.storeMissing ? undefined : sqliteSchemaVersion(file);
  if (ctx.mode !== 'text') {
    const info = found
      ? { store: file, schemaVersion: found.version, latestSchemaVersion: found.latest, crawlkit: VERSION }
      : { store: file, schemaVersion: null, crawlkit: VERSION };
    ctx.write(`${JSON.stringify(info, null, 2)}\n`);
    return Promise.resolve(EXIT.ok);
  }
  if (!found) {
    ctx.write(`there is no store at ${ctx.storePlace}\n`);
    return Promise.resolve(EXIT.ok);
  }
  ctx.write(
    `store:     ${file}\n` +
      `schema:    ${found.version} (${verdict(found.version, found.latest)})\n` +
      `crawlkit:  ${VERSION}\n`,
  );
  return Promise.resolve(EXIT.ok);
}
