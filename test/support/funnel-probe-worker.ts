// A real Temporal worker for the funnel probe workflows (./funnel-probe-workflows.ts) with the
// platform's real guidance activities, on the test's own task queue.
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { installTemporalRuntime } from '../../app/platform-runtime';
import { createGuidanceActivities } from '../../activities/investigations/guidance-activities';
import { closeAfterTestRun, testDeps } from './platform';

let bundle: Promise<WorkflowBundleWithSourceMap> | null = null;

export async function startFunnelProbeWorker(taskQueue: string, env: Record<string, string> = {}): Promise<void> {
  const deps = await testDeps(env);
  installTemporalRuntime(deps.log);
  bundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('./funnel-probe-workflows'), logger: { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: (m: string) => process.stderr.write(`${m}\n`) } });
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    namespace: deps.config.temporal_namespace,
    taskQueue,
    workflowBundle: await bundle,
    activities: createGuidanceActivities({ knex: deps.knex, config: deps.config }),
    shutdownGraceTime: '1s',
  });
  const done = worker.run().finally(() => connection.close());
  closeAfterTestRun(async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await done;
  });
}
