// A one-off report (POST /reports/generate): generate once, optionally e-mail it. The task id is
// the workflow id.
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import type { ReportOptions, ReportScope } from '../../domain/reports/report-request';
import { trackProgress } from '../tasks/task-progress';

const generation = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});
const delivery = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

export interface GenerateReportInput {
  template: string;
  scope: ReportScope;
  options: ReportOptions;
  recipients: string[];
  requestedAt: string;
  requestedBy: string;
}

export interface GenerateReportResult {
  report_id: string;
  format: string;
  size_bytes: number;
  sha256: string;
  download_path: string;
  delivery: string;
}

export async function generateReportWorkflow(input: GenerateReportInput): Promise<GenerateReportResult> {
  const progress = trackProgress('generating');
  const taskId = workflowInfo().workflowId;
  const report = await generation.generateOneOffReport({ ...input, taskId });
  let deliveryStatus = 'not requested';
  if (input.recipients.length) {
    progress.set('delivering', 80, { report_id: report.reportId });
    deliveryStatus = (await delivery.deliverReport({ reportId: report.reportId, recipients: input.recipients })).status;
  }
  progress.set('done', 100, { report_id: report.reportId });
  return {
    report_id: report.reportId,
    format: report.format,
    size_bytes: report.sizeBytes,
    sha256: report.sha256,
    download_path: `/reports/generated/${report.reportId}/download`,
    delivery: deliveryStatus,
  };
}
