// `npm start`: the whole platform in one process on embedded defaults: PostgreSQL, the Temporal dev
// server with its UI, the Temporal workers and the Koa API.
import { loadConfig } from '../config/config';
import { describeChromium } from '../infra/chromium';
import { describeChromiumSandbox } from '../infra/chromium-sandbox';
import { startUpFonts } from '../infra/fonts';
import { ensureConsoleBuilt } from '../infra/console-build';
import { createLogger } from '../infra/logger';
import { startInfrastructure } from '../app/infrastructure';
import { connectDatabase } from '../app/database';
import { checkIdentityMode, connectTemporal, startApiServer, startWorker } from '../app/platform-runtime';
import { onShutdown } from '../app/process-lifecycle';
import { startBackgroundServices } from '../app/background-services';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.log.level);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  checkIdentityMode(config, log);
  say(`fip: starting (data directory ${config.data_dir})`);
  if (await ensureConsoleBuilt()) say('fip: console built (console/dist)');
  const infra = await startInfrastructure(config, log, say);
  const knex = await connectDatabase(config, infra.databaseUrl, log, true);
  const temporal = await connectTemporal(config, infra.temporalAddress);
  const deps = { config, knex, temporal, log };
  const worker = await startWorker(config, infra.temporalAddress, deps);
  say(`fip: chromium ${describeChromium(worker.resources.chromium)}`);
  say(`fip: ${describeChromiumSandbox(worker.resources.crawlerSandbox, config.crawler.allow_unsandboxed)}`);
  say(`fip: ${await startUpFonts()}`);
  say(`fip: wallet allowlist ${worker.resources.walletAllowlist.pairs.length} token-network pairs (${worker.resources.walletAllowlist.path})`);
  const appDeps = { ...deps, blobs: worker.resources.blobs }; // the API streams downloads from the workers' store
  const background = await startBackgroundServices(appDeps);
  const api = await startApiServer(appDeps, config.port);
  onShutdown(log, [
    ['api', api.close],
    ['workers', worker.shutdown],
    ['background', background.stop],
    ['temporal client', () => temporal.connection.close()],
    ['database pool', () => knex.destroy()],
    ['embedded services', infra.stop],
  ]);
  const host = `http://localhost:${config.port}`;
  say('');
  say(`  API          ${host}${config.api.host === '127.0.0.1' ? '' : ` (listening on ${config.api.host})`}`);
  say(`  Swagger UI   ${host}/docs`);
  say(`  ReDoc        ${host}/redoc`);
  say(`  Console      ${host}/console`);
  say(`  Temporal UI  ${infra.temporalUiUrl ?? `(external cluster at ${infra.temporalAddress})`}`);
  say(`  Temporal     ${infra.temporalAddress} namespace ${config.temporal_namespace}, task queue ${config.temporal.task_queue}`);
  say(`  PostgreSQL   ${infra.embedded.postgres ? `embedded, 127.0.0.1:${config.postgres.port}` : 'DATABASE_URL'}`);
  say(`  Persona mail ${background.mailReceiver ? `smtp://${background.mailReceiver} for @${config.ssi.persona_email_domain}` : '(receiver off)'}`);
  say(`  Data         ${config.data_dir}`);
  say('');
  say('fip: ready (Ctrl-C stops everything)');
}

main().catch((err) => {
  process.stderr.write(`fip: start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
