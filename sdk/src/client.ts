// The client: a typed generic `request` over every path of the generated OpenAPI types, plus
// hand-written route groups (camelCase methods and payloads) for the platform's main features.
import { toDownload, type Download } from './download.js';
import { FipTaskFailedError, FipTimeoutError } from './errors.js';
import { PagedList } from './pagination.js';
import { Transport, type ApiKind, type ClientOptions, type RequestOptions } from './transport.js';
import type { BodyOf, HttpMethod, Operation, Page, PathParamsOf, PathsWith, QueryOf, ResponseOf, Schema } from './types.js';

/** The parts of an OpenAPI document the SDK's callers read; the rest is there as served. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export type TypedRequestOptions<O> = Omit<RequestOptions, 'path' | 'query' | 'body'> & {
  path?: PathParamsOf<O>;
  query?: QueryOf<O>;
  body?: BodyOf<O>;
};

type PageItem<R> = R extends { items: (infer I)[] } ? I : never;
type Filters<P extends PathsWith<'get'>> = Omit<NonNullable<QueryOf<Operation<P, 'get'>>>, 'cursor'>;
type Json<P extends PathsWith<'post'>> = NonNullable<BodyOf<Operation<P, 'post'>>>;
type Call = Pick<RequestOptions, 'signal' | 'headers'>;
type WithKey = Call & { idempotencyKey?: string };

export type Task = Schema<'Task'>;
export type TaskAccepted = Schema<'TaskAccepted'>;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export interface WaitOptions {
  /** Called with the task whenever its status or progress changed since the last poll. */
  onProgress?: (task: Task) => void;
  /** Give up (FipTimeoutError) after this many ms; default: wait as long as it takes. */
  timeoutMs?: number;
  /** Poll interval in ms (default 1000). */
  intervalMs?: number;
  signal?: AbortSignal;
}

/** The base of every route group. */
abstract class Group {
  constructor(protected readonly t: Transport) {}

  protected paged<T>(path: string, query: object = {}, pathParams: Record<string, string | number> = {}, call: Call = {}): PagedList<T> {
    return new PagedList<T>(async (cursor) => {
      const page = await this.t.json<Page<T>>('GET', path, { ...call, path: pathParams, query: { ...query, cursor } });
      return { items: page.items, nextCursor: page.nextCursor ?? null };
    });
  }
}

export class AccountsApi extends Group {
  /** The caller: e-mail and roles (people), or the API key's service and scopes. */
  me(call: Call = {}): Promise<Schema<'Me'>> {
    return this.t.json('GET', '/accounts/me', call);
  }
}

export class ReportsApi extends Group {
  /** Starts generating a report; answers the task (poll it with tasks.wait). An idempotencyKey makes a repeat safe (and retryable). */
  generate(input: Json<'/reports/generate'>, call: WithKey = {}): Promise<TaskAccepted> {
    return this.t.json('POST', '/reports/generate', { ...call, body: input });
  }

  list(filters: Filters<'/reports/generated'> = {}, call: Call = {}): PagedList<PageItem<Schema<'GeneratedReportPage'>>> {
    return this.paged('/reports/generated', filters, {}, call);
  }

  /** The report file, streamed; `range` (e.g. `bytes=0-99`) asks for part of it (status 206). */
  async download(reportId: string, { range, ...call }: Call & { range?: string } = {}): Promise<Download> {
    const headers = { ...call.headers, ...(range ? { Range: range } : {}) };
    return toDownload(await this.t.send('GET', '/reports/generated/{id}/download', { ...call, headers, path: { id: reportId } }));
  }

  templates(call: Call = {}): Promise<ResponseOf<Operation<'/intelligence/report-templates', 'get'>>> {
    return this.t.json('GET', '/intelligence/report-templates', call);
  }
}

export class ScheduledReportsApi extends Group {
  create(input: Json<'/intelligence/scheduled-reports'>, call: Call = {}): Promise<Schema<'ReportSchedule'>> {
    return this.t.json('POST', '/intelligence/scheduled-reports', { ...call, body: input });
  }

  list(filters: Filters<'/intelligence/scheduled-reports'> = {}, call: Call = {}): PagedList<Schema<'ReportSchedule'>> {
    return this.paged('/intelligence/scheduled-reports', filters, {}, call);
  }

  deactivate(id: string, call: Call = {}): Promise<Schema<'ReportSchedule'>> {
    return this.t.json('PUT', '/intelligence/scheduled-reports/{id}/deactivate', { ...call, path: { id } });
  }
}

export class TasksApi extends Group {
  get(taskId: string, call: Call = {}): Promise<Task> {
    return this.t.json('GET', '/tasks/{task_id}', { ...call, path: { task_id: taskId } });
  }

  cancel(taskId: string, call: Call = {}): Promise<Task> {
    return this.t.json('POST', '/tasks/{task_id}/update', { ...call, path: { task_id: taskId }, body: { status: 'cancelled' } });
  }

  addNote(taskId: string, note: string, percent?: number, call: Call = {}): Promise<Task> {
    return this.t.json('POST', '/tasks/{task_id}/update', { ...call, path: { task_id: taskId }, body: { progress: { note, ...(percent === undefined ? {} : { percent }) } } });
  }

  /**
   * Polls the task until it ends: answers the task when completed; throws FipTaskFailedError when
   * it failed or was cancelled, FipTimeoutError after timeoutMs.
   */
  async wait(taskId: string, { onProgress, timeoutMs, intervalMs = 1000, signal }: WaitOptions = {}): Promise<Task> {
    const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      const task = await this.get(taskId, { signal });
      const seen = JSON.stringify([task.status, task.progress]);
      if (seen !== last) {
        last = seen;
        onProgress?.(task);
      }
      if (TERMINAL.has(task.status)) {
        if (task.status === 'completed') return task;
        throw new FipTaskFailedError(taskId, task.status, task.error?.message ?? `task ${taskId} ${task.status}`, task);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new FipTimeoutError(`task ${taskId} still ${task.status} after ${timeoutMs} ms`, task);
      await delay(Math.min(intervalMs, left), signal);
    }
  }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }, { once: true });
  });
}

/** The JSON `payload` part of an intake (camelCase; its keys are translated like any body). */
export interface IntakePayload {
  summary: string;
  details?: string;
  source?: string;
  reporterName?: string;
  contactEmail?: string;
  contactPhone?: string;
  lossAmount?: number | string;
  lossCurrency?: string;
  occurredAt?: string;
  urls?: string[];
}

/** A file of an intake: a Blob/File, or bytes with a name. */
export type IntakeFile = Blob | { name: string; data: Blob | Uint8Array | ArrayBuffer | string; type?: string };

export class IntakesApi extends Group {
  /** Submits an intake as multipart/form-data: the payload part (JSON) and one `files` part per file. */
  create(payload: IntakePayload, files: IntakeFile[] = [], call: WithKey = {}): Promise<Schema<'IntakeCreated'>> {
    const form = new FormData();
    form.append('payload', JSON.stringify(this.t.translator.toWire(payload)));
    files.forEach((file, i) => {
      if (file instanceof Blob) {
        form.append('files', file, 'name' in file && typeof file.name === 'string' ? file.name : `file-${i + 1}`);
      } else {
        const data = file.data instanceof Blob ? file.data : new Blob([file.data as BlobPart], { type: file.type ?? 'application/octet-stream' });
        form.append('files', data, file.name);
      }
    });
    return this.t.json('POST', '/intakes', { ...call, body: form });
  }

  list(filters: Filters<'/intakes/'> = {}, call: Call = {}): PagedList<PageItem<Schema<'IntakePage'>>> {
    return this.paged('/intakes/', filters, {}, call);
  }

  get(id: string, call: Call = {}): Promise<Schema<'Intake'>> {
    return this.t.json('GET', '/intakes/{id}', { ...call, path: { id } });
  }

  /** The reporter's contact data (vault; audited): analysts only, with a stated purpose. */
  contact(id: string, purpose: NonNullable<QueryOf<Operation<'/intakes/{id}/contact', 'get'>>>['purpose'], call: Call = {}): Promise<Schema<'IntakeContact'>> {
    return this.t.json('GET', '/intakes/{id}/contact', { ...call, path: { id }, query: { purpose } });
  }

  setStatus(id: string, input: Json<'/intakes/{id}/status'>, call: Call = {}): Promise<ResponseOf<Operation<'/intakes/{id}/status', 'post'>>> {
    return this.t.json('POST', '/intakes/{id}/status', { ...call, path: { id }, body: input });
  }

  job(jobId: string, call: Call = {}): Promise<Schema<'IntakeJob'>> {
    return this.t.json('GET', '/intakes/jobs/{id}', { ...call, path: { id: jobId } });
  }

  jobAction(jobId: string, action: Json<'/intakes/jobs/{id}'>['action'], call: Call = {}): Promise<Schema<'IntakeJob'>> {
    return this.t.json('POST', '/intakes/jobs/{id}', { ...call, path: { id: jobId }, body: { action } });
  }

  attachToCase(id: string, input: Json<'/intakes/{id}/case'>, call: Call = {}): Promise<Schema<'IntakeCaseAttachment'>> {
    return this.t.json('POST', '/intakes/{id}/case', { ...call, path: { id }, body: input });
  }
}

export class CasesApi extends Group {
  list(filters: Filters<'/cases'> = {}, call: Call = {}): PagedList<PageItem<Schema<'CasePage'>>> {
    return this.paged('/cases', filters, {}, call);
  }

  create(input: Json<'/cases'>, call: Call = {}): Promise<Schema<'Case'>> {
    return this.t.json('POST', '/cases', { ...call, body: input });
  }

  get(caseId: string, call: Call = {}): Promise<Schema<'CaseDetail'>> {
    return this.t.json('GET', '/cases/{case_id}', { ...call, path: { case_id: caseId } });
  }

  update(caseId: string, input: NonNullable<BodyOf<Operation<'/cases/{case_id}', 'patch'>>>, call: Call = {}): Promise<Schema<'Case'>> {
    return this.t.json('PATCH', '/cases/{case_id}', { ...call, path: { case_id: caseId }, body: input });
  }

  leaReferral(caseId: string, call: Call = {}): Promise<Schema<'LeaReferral'>> {
    return this.t.json('GET', '/cases/{case_id}/lea-referral', { ...call, path: { case_id: caseId } });
  }

  referToLea(caseId: string, input: Json<'/cases/{case_id}/lea-referral'>, call: Call = {}): Promise<Schema<'LeaReferral'>> {
    return this.t.json('POST', '/cases/{case_id}/lea-referral', { ...call, path: { case_id: caseId }, body: input });
  }
}

export class ReviewsApi extends Group {
  create(input: Json<'/reviews/'>, call: Call = {}): Promise<Schema<'Review'>> {
    return this.t.json('POST', '/reviews/', { ...call, body: input });
  }

  /** The review queue, most urgent first. */
  queue(filters: Filters<'/reviews/queue'> = {}, call: Call = {}): PagedList<Schema<'ReviewWithCase'>> {
    return this.paged('/reviews/queue', filters, {}, call);
  }

  forCase(caseId: string, call: Call = {}): PagedList<Schema<'Review'>> {
    return this.paged('/reviews/case/{case_id}', {}, { case_id: caseId }, call);
  }

  get(id: string, call: Call = {}): Promise<Schema<'ReviewWithCase'>> {
    return this.t.json('GET', '/reviews/{id}', { ...call, path: { id } });
  }

  claim(id: string, call: Call = {}): Promise<Schema<'ReviewClaim'>> {
    return this.t.json('POST', '/reviews/{id}/claim', { ...call, path: { id } });
  }

  annotate(id: string, input: Json<'/reviews/{id}/annotate'>, call: Call = {}): Promise<Schema<'ReviewAction'>> {
    return this.t.json('POST', '/reviews/{id}/annotate', { ...call, path: { id }, body: input });
  }

  feedback(id: string, input: Json<'/reviews/{id}/feedback'>, call: Call = {}): Promise<Schema<'ReviewAction'>> {
    return this.t.json('POST', '/reviews/{id}/feedback', { ...call, path: { id }, body: input });
  }

  decide(id: string, input: Json<'/reviews/{id}/decision'>, call: Call = {}): Promise<Schema<'ReviewDecision'>> {
    return this.t.json('POST', '/reviews/{id}/decision', { ...call, path: { id }, body: input });
  }

  actions(id: string, call: Call = {}): PagedList<Schema<'ReviewAction'>> {
    return this.paged('/reviews/{id}/actions', {}, { id }, call);
  }
}

export type WalletSearch = Filters<'/investigations/ssi/wallets'>;
export type CrossScanWallet = Schema<'CrossScanWallet'>;
/** Where a finding was seen: the evidence bundle's WARC record that holds it, the page, the step, the screenshot. */
export type FindingProvenance = Schema<'FindingProvenance'>;

export class WalletsApi extends Group {
  /** Wallets across all investigations, one per (network, address), with the scans that found it. */
  search(filters: WalletSearch = {}, call: Call = {}): PagedList<CrossScanWallet> {
    return this.paged('/investigations/ssi/wallets', filters, {}, call);
  }
}

export class InvestigationsApi extends Group {
  /** Starts an investigation of a URL (optionally with a playbook); answers the scan and its task. */
  start(input: Json<'/investigations/ssi'>, call: WithKey = {}): Promise<Schema<'InvestigationAccepted'>> {
    return this.t.json('POST', '/investigations/ssi', { ...call, body: input });
  }

  active(filters: Filters<'/investigations/ssi/active'> = {}, call: Call = {}): PagedList<PageItem<Schema<'InvestigationActivePage'>>> {
    return this.paged('/investigations/ssi/active', filters, {}, call);
  }

  history(filters: Filters<'/investigations/ssi/history'> = {}, call: Call = {}): PagedList<PageItem<Schema<'InvestigationHistoryPage'>>> {
    return this.paged('/investigations/ssi/history', filters, {}, call);
  }

  get(scanId: string, call: Call = {}): Promise<Schema<'InvestigationDetail'>> {
    return this.t.json('GET', '/investigations/ssi/{scan_id}', { ...call, path: { scan_id: scanId } });
  }

  /** The wallets one investigation found (from its detail). */
  async wallets(scanId: string, call: Call = {}): Promise<Schema<'InvestigationDetail'>['wallets']> {
    return (await this.get(scanId, call)).wallets;
  }

  /** The scan's wallets as CSV or XLSX, streamed. */
  async exportWallets(scanId: string, format: 'csv' | 'xlsx', call: Call = {}): Promise<Download> {
    return toDownload(await this.t.send('GET', `/investigations/ssi/{scan_id}/wallets.${format}`, { ...call, path: { scan_id: scanId } }));
  }

  /** A captured page's artifact (screenshot, DOM or HAR), streamed. */
  async artifact(scanId: string, pageId: string, artifact: 'screenshot' | 'dom' | 'har', call: Call = {}): Promise<Download> {
    return toDownload(await this.t.send('GET', '/investigations/ssi/{scan_id}/pages/{page_id}/{artifact}', { ...call, path: { scan_id: scanId, page_id: pageId, artifact } }));
  }

  /**
   * An after-reveal record (`reveal-0001-coin-tab-btc.png`, `.html`, `.har`, `late-<hash>.har`),
   * streamed: the screenshot a wallet's `provenance.screenshot_path` names under `reveals/`.
   */
  async revealRecord(scanId: string, name: string, options: Call & { purpose?: string } = {}): Promise<Download> {
    const { purpose, ...call } = options;
    return toDownload(await this.t.send('GET', '/investigations/ssi/{scan_id}/reveals/{name}', { ...call, path: { scan_id: scanId, name }, query: { purpose } }));
  }

  /** The signed evidence bundle (WACZ) of an ended scan, streamed; `purpose` is written to the custody and audit logs. */
  evidenceBundle(scanId: string, options: Call & { purpose?: string } = {}): Promise<Download> {
    return this.evidence('/investigations/ssi/{scan_id}/evidence-bundle', scanId, options);
  }

  /** The law-enforcement package (signed ZIP) of an ended scan, streamed. */
  leaPackage(scanId: string, options: Call & { purpose?: string } = {}): Promise<Download> {
    return this.evidence('/investigations/ssi/{scan_id}/lea-package', scanId, options);
  }

  /** The investigation report PDF of an ended scan (its X-Content-SHA256 header on `download.response`). */
  reportPdf(scanId: string, options: Call & { purpose?: string } = {}): Promise<Download> {
    return this.evidence('/investigations/ssi/{scan_id}/report.pdf', scanId, options);
  }

  private async evidence(path: PathsWith<'get'>, scanId: string, { purpose, ...call }: Call & { purpose?: string }): Promise<Download> {
    return toDownload(await this.t.send('GET', path, { ...call, path: { scan_id: scanId }, query: { purpose } }));
  }

  /** Cross-scan wallet search (the same as client.wallets.search). */
  searchWallets(filters: WalletSearch = {}, call: Call = {}): PagedList<CrossScanWallet> {
    return this.paged('/investigations/ssi/wallets', filters, {}, call);
  }
}

export class PlaybooksApi extends Group {
  list(filters: Filters<'/playbooks/ssi'> = {}, call: Call = {}): PagedList<Schema<'Playbook'>> {
    return this.paged('/playbooks/ssi', filters, {}, call);
  }

  create(input: Json<'/playbooks/ssi'>, call: Call = {}): Promise<Schema<'Playbook'>> {
    return this.t.json('POST', '/playbooks/ssi', { ...call, body: input });
  }

  get(id: string, call: Call = {}): Promise<Schema<'Playbook'>> {
    return this.t.json('GET', '/playbooks/ssi/{id}', { ...call, path: { id } });
  }

  replace(id: string, input: Json<'/playbooks/ssi'>, call: Call = {}): Promise<Schema<'Playbook'>> {
    return this.t.json('PUT', '/playbooks/ssi/{id}', { ...call, path: { id }, body: input });
  }

  async delete(id: string, call: Call = {}): Promise<void> {
    await this.t.json('DELETE', '/playbooks/ssi/{id}', { ...call, path: { id } });
  }

  testMatch(url: string, call: Call = {}): Promise<Schema<'PlaybookTestMatchResult'>> {
    return this.t.json('POST', '/playbooks/ssi/test-match', { ...call, body: { url } });
  }
}

export class AuditApi extends Group {
  /** The audit log, newest first (admins). */
  events(filters: Filters<'/audit/events'> = {}, call: Call = {}): PagedList<PageItem<Schema<'AuditEventPage'>>> {
    return this.paged('/audit/events', filters, {}, call);
  }
}

export class FipClient {
  readonly kind: ApiKind;
  readonly accounts: AccountsApi;
  readonly reports: ReportsApi;
  readonly scheduledReports: ScheduledReportsApi;
  readonly tasks: TasksApi;
  readonly intakes: IntakesApi;
  readonly cases: CasesApi;
  readonly reviews: ReviewsApi;
  readonly investigations: InvestigationsApi;
  readonly wallets: WalletsApi;
  readonly playbooks: PlaybooksApi;
  readonly audit: AuditApi;
  private readonly transport: Transport;

  constructor(options: ClientOptions = {}) {
    const t = new Transport(options);
    this.transport = t;
    this.kind = t.kind;
    this.accounts = new AccountsApi(t);
    this.reports = new ReportsApi(t);
    this.scheduledReports = new ScheduledReportsApi(t);
    this.tasks = new TasksApi(t);
    this.intakes = new IntakesApi(t);
    this.cases = new CasesApi(t);
    this.reviews = new ReviewsApi(t);
    this.investigations = new InvestigationsApi(t);
    this.wallets = new WalletsApi(t);
    this.playbooks = new PlaybooksApi(t);
    this.audit = new AuditApi(t);
  }

  /**
   * Any route of the API, typed from the generated OpenAPI paths (camelCase): path parameters,
   * query and body in, the success body out. For routes without a hand-written method.
   */
  request<M extends HttpMethod, P extends PathsWith<M>>(method: M, path: P, options: TypedRequestOptions<Operation<P, M>> = {}): Promise<ResponseOf<Operation<P, M>>> {
    return this.transport.json(method.toUpperCase(), path, options as RequestOptions);
  }

  /** Any list route ({items, next_cursor}) as a PagedList: `for await (const item of client.paginate('/cases', {query}))`. */
  paginate<P extends PathsWith<'get'>>(path: P, options: Omit<TypedRequestOptions<Operation<P, 'get'>>, 'body'> = {}): PagedList<PageItem<ResponseOf<Operation<P, 'get'>>>> {
    const { path: pathParams, query, ...call } = options as RequestOptions;
    return new PagedList(async (cursor) => {
      const page = await this.transport.json<Page<never>>('GET', path, { ...call, path: pathParams, query: { ...query, cursor } });
      return { items: page.items, nextCursor: page.nextCursor ?? null };
    });
  }

  /**
   * The API's OpenAPI document exactly as served (never key-translated: its paths keep their
   * parameter names, its schemas their snake_case properties).
   */
  async openapi(call: Call = {}): Promise<OpenApiDocument> {
    const response = await this.transport.send('GET', '/openapi.json', call);
    return (await response.json()) as OpenApiDocument;
  }

  /** Any download route, streamed. */
  async download<P extends PathsWith<'get'>>(path: P, options: Omit<TypedRequestOptions<Operation<P, 'get'>>, 'body'> = {}): Promise<Download> {
    return toDownload(await this.transport.send('GET', path, options as RequestOptions));
  }
}

/**
 * The SDK's entry point. Platform variant: `createFipClient({ kind: 'core', baseUrl, apiKey })`
 * (or SVC_API_KIND=core in the environment); default variant: `createFipClient({ baseUrl, apiKey })`.
 */
export function createFipClient(options: ClientOptions = {}): FipClient {
  return new FipClient(options);
}
