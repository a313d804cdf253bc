// A real Temporal worker running the platform's real workflow bundle with activities supplied by
// the test (an activity that keeps failing, one that never finishes), on the test's own task queue.
import { NativeConnection, Worker } from '@temporalio/worker';
import { installTemporalRuntime, workflowBundle } from '../../app/platform-runtime';
import { testDeps } from './platform';

export interface StubWorker {
  shutdown(): Promise<void>;
}

export async function startActivityStubWorker(taskQueue: string, activities: Record<string, (...args: never[]) => Promise<unknown>>): Promise<StubWorker> {
  const deps = await testDeps();
  installTemporalRuntime(deps.log);
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    namespace: deps.config.temporal_namespace,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
    shutdownGraceTime: '1s',
  });
  const done = worker.run().finally(() => connection.close());
  return {
    shutdown: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
