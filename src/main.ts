// The program: parse flags, connect, run the controller until SIGTERM/SIGINT.
import { KubeConfig } from '@kubernetes/client-node';
import { startController } from './controller/controller.js';
import { converterFor, SUPPORTED_PLATFORMS } from './conversion/platforms.js';
import { createLogger } from './logging.js';
import { parseOptions, USAGE, UsageError, type Options } from './options.js';

function loadKubeConfig(options: Options): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (options.kubeconfig) {
    kubeConfig.loadFromFile(options.kubeconfig);
  } else if (process.env.KUBERNETES_SERVICE_HOST && process.env.KUBERNETES_SERVICE_PORT) {
    kubeConfig.loadFromCluster();
  }
  if (!kubeConfig.getCurrentCluster()) {
    throw new Error(
      'no cluster to connect to: pass --kubeconfig, set KUBECONFIG, or run in a pod with a service account',
    );
  }
  return kubeConfig;
}

async function main(): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(process.argv.slice(2), process.env, process.stderr.isTTY);
    if (options !== 'help' && options.platform && !SUPPORTED_PLATFORMS.includes(options.platform)) {
      throw new UsageError(
        `--platform "${options.platform}" is not supported; supported: ${SUPPORTED_PLATFORMS.join(', ')}`,
      );
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`mapi-capi-sync: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }

  const logger = createLogger(options.logLevel, options.logFormat);
  let kubeConfig: KubeConfig;
  try {
    kubeConfig = loadKubeConfig(options);
  } catch (err) {
    logger.error('cannot load kubeconfig', { error: (err as Error).message });
    return 1;
  }
  logger.info('starting', {
    server: kubeConfig.getCurrentCluster()?.server,
    mapiNamespace: options.mapiNamespace,
    capiNamespace: options.capiNamespace,
    platform: options.platform ?? '(from Infrastructure)',
    workers: options.workers,
  });
  const controller = startController({
    kubeConfig,
    mapiNamespace: options.mapiNamespace,
    capiNamespace: options.capiNamespace,
    ...(options.platform ? { platform: options.platform } : {}),
    workers: options.workers,
    converterFor,
    logger,
  });
  await new Promise<void>((resolve) => {
    const onSignal = (signal: string) => {
      logger.info('shutting down', { signal });
      resolve();
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  });
  await controller.stop();
  logger.info('stopped');
  return 0;
}

process.exitCode = await main();
