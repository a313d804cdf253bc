// The platform's payloads as the console sees them (camelCase; see api.ts).
export type Role = 'admin' | 'analyst' | 'researcher' | 'reviewer';

export interface Me {
  email: string | null;
  roles: Role[];
}

export interface Progress {
  stage: string;
  percent: number | null;
  detail: Record<string, unknown>;
}

export interface InvestigationSummary {
  scanId: string;
  url: string;
  finalUrl: string | null;
  label: string | null;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  state: string;
  requestedBy: string;
  caseId: string | null;
  walletCount: number;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  taskId: string;
  progress?: Progress | null;
}

export interface Artifact {
  downloadPath: string;
  sha256: string;
  sizeBytes: number;
}

export interface ScanWallet {
  address: string;
  token: string;
  network: string;
  confidence: string;
  source: string;
  pageUrl: string | null;
  foundInState: string | null;
  firstSeenAt: string;
}

export interface InvestigationDetail extends InvestigationSummary {
  error: string | null;
  playbookId: string | null;
  redirectChain: Array<{ url: string; status: number | null; kind: string }>;
  pages: Array<{
    id: string; url: string; title: string | null; httpStatus: number | null; serverIp: string | null; foundInState: string; capturedAt: string;
    artifacts: { screenshot: Artifact; dom: Artifact; har: Artifact };
  }>;
  wallets: ScanWallet[];
  pii: Array<{ kind: string; value: string; pageUrl: string }>;
  agentActions: Array<{ at: string; state: string; action: string; target: string; outcome: string; walletsFound: number }>;
  blockedRequests: Array<{ url: string; resourceType: string; reason: string; category: string | null; at: string }>;
}

export interface Task {
  taskId: string;
  kind: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | string;
  progress: (Progress & { notes: Array<{ at: string; note: string; percent: number | null }>; updatedAt: string }) | null;
  lastFailure: { activity: string; attempt: number; message: string; at: string | null } | null;
  error: { message: string; type?: string } | null;
}

export interface CrossScanWallet {
  network: string;
  address: string;
  token: string;
  tokens: string[];
  scanCount: number;
  scans: Array<{ scanId: string; url: string | null; pageUrl: string | null; firstSeenAt: string }>;
  firstSeenAt: string;
  lastSeenAt: string;
}

export interface Playbook {
  id: string;
  name: string;
}

export interface Intake {
  id: string;
  status: string;
  source: string;
  summary: string;
  lossAmount: string | null;
  lossCurrency: string | null;
  fileCount: number;
  caseId: string | null;
  createdAt: string;
}

export interface Case {
  id: string;
  title: string;
  description: string;
  status: string;
  priority: string;
  assignee: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Review {
  id: string;
  caseId: string;
  status: string;
  priority: string;
  reason: string;
  requestedBy: string;
  claimedBy: string | null;
  claimExpiresAt: string | null;
  decision: string | null;
  rationale: string | null;
  decidedBy: string | null;
  createdAt: string;
}

export interface Schedule {
  id: string;
  template: string;
  cadence: string;
  scope: { entity_types: string[] } & Record<string, unknown>;
  options: { format: string; title?: string };
  recipients: string[];
  isActive: boolean;
  nextRunAt: string;
  lastRunAt: string | null;
  createdBy: string;
  lastError: string | null;
}

export interface ReportTemplate {
  name: string;
  title: string;
  description: string;
  defaultEntityTypes: string[];
  formats: string[];
}
